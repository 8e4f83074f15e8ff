#!/usr/bin/env python3
"""The rooms of src/ (src/README.md, "Rooms", top first) depend one way: fails on an #include of a
room above the including file's, on files that include each other (directly or round about; a
file and its header count as one), on a source file outside the rooms, on a room of more than 15
files, on an MPI or log call in the decision room, which must stay pure, and on an #include of src/
from the algorithm folders below it.

    include_layers.py SOURCE_DIR
"""
import pathlib
import re
import sys

MOST_FILES = 15
PURE_ROOM = "decision"

root = pathlib.Path(sys.argv[1])
src = root / "src"
rooms = re.findall(r"^\d+\. `(\w+)/`", (src / "README.md").read_text(), re.MULTILINE)
rank = {room: i for i, room in enumerate(rooms)}  # 0 is the top
problems = []

# A unit is a file without its extension: foo.h and foo.cpp are one.
def unit(path):
    relative = path.relative_to(root).with_suffix("")
    return str(relative)

edges = {}
for path in sorted(src.rglob("*")):
    if not path.is_file():
        continue
    relative = path.relative_to(src)
    if len(relative.parts) == 1:
        if path.suffix in (".cpp", ".h", ".def"):
            problems.append(f"src/{relative}: a source file outside the rooms of src/README.md")
        continue
    room = relative.parts[0]
    if room not in rank:
        problems.append(f"src/{relative}: room {room}/ is not in src/README.md's list")
        continue
    text = path.read_text()
    if room == PURE_ROOM:
        for number, line in enumerate(text.splitlines(), 1):
            if re.search(r"\bPMPI_\w+|\blog(_rank0)?\(|src/base/log\.h", line):
                problems.append(f"src/{relative}:{number}: the {PURE_ROOM} room calls no MPI and logs nothing: {line.strip()}")
    for number, line in enumerate(text.splitlines(), 1):
        match = re.match(r'\s*#\s*include\s+"src/([^"]+)"', line)
        if not match:
            continue
        included = match.group(1)
        target = src / included
        target_room = pathlib.Path(included).parts[0]
        if target_room not in rank or not target.exists():
            problems.append(f"src/{relative}:{number}: includes src/{included}, which is in no room")
            continue
        if rank[target_room] < rank[room]:
            problems.append(f"src/{relative}:{number}: {room}/ includes {target_room}/, a room above it")
        if unit(target) != unit(path):
            edges.setdefault(unit(path), set()).add(unit(target))

for folder in ("schedule", "pattern", "matching", "mapping"):
    for path in sorted((root / folder).rglob("*")):
        if path.suffix in (".cpp", ".h") and re.search(r'^\s*#\s*include\s+"src/', path.read_text(), re.MULTILINE):
            problems.append(f"{path.relative_to(root)}: includes src/, which sits above the algorithms")

for room in rooms:
    files = [p for p in (src / room).glob("*") if p.is_file()] if (src / room).is_dir() else []
    if not files:
        problems.append(f"src/{room}/: listed in src/README.md but holds no file")
    if len(files) > MOST_FILES:
        problems.append(f"src/{room}/: {len(files)} files, more than {MOST_FILES}")

# Cycles between units: depth-first search, reporting each cycle found once.
state = {}
def visit(node, trail):
    state[node] = "open"
    for next_node in sorted(edges.get(node, ())):
        if state.get(next_node) == "open":
            cycle = trail[trail.index(next_node):] + [next_node]
            problems.append("include cycle: " + " -> ".join(cycle))
        elif next_node not in state:
            visit(next_node, trail + [next_node])
    state[node] = "done"

for node in sorted(edges):
    if node not in state:
        visit(node, [node])

for problem in problems:
    print(problem)
print(f"include_layers: {len(rooms)} rooms, {sum(len(v) for v in edges.values())} includes between files, "
      f"{len(problems)} problems")
sys.exit(1 if problems else 0)
