#!/usr/bin/env bash
# What auto mode with the default settings costs a short job, and what a rules file saves it: at 4
# and 16 ranks, on a stencil and a random graph, 4 B to 64 KiB, nbrbench jobs of 110 calls of each
# side (native and auto, alternating in one job: 10 runs of 1 + 10 calls), first learning
# (NBRCOMB_RULES_OUT), then again with what it learned (NBRCOMB_RULES). Each case runs JOBS such
# pairs of jobs (default 5) in turn, since one job's ratio moves by 10-20 % from job to job where
# the ranks oversubscribe the cores. One CSV row per case and pass: the median of the jobs' ratios
# to native (nbrbench's median of run medians) and their least and greatest, then of the median
# job: its rank-sum p-values, a verdict (faster: ratio at most 0.97 and p_faster at most 0.05;
# slower: ratio at least 1.03 and p_slower at most 0.05; else tie), and the report's decisions by
# tier and trial calls.
#
#   bench/auto/learn_and_reuse.sh [BUILD] > bench/results/auto-learn-and-reuse-openmpi.csv
#   NPS="4" TOPOLOGIES="moore:2:2" BYTES="65536" JOBS=1 bench/auto/learn_and_reuse.sh   (a subset)
set -euo pipefail
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ $(id -u) -eq 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

echo "ranks,topology,collective,form,bytes,pass,ratio_to_native,ratio_min,ratio_max,p_slower,p_faster,verdict,decided_by_setting,decided_by_rules,decided_by_trial,decided_by_estimate,trial_calls"
jobs=${JOBS:-5}
for np in ${NPS:-4 16}; do
  for topology in ${TOPOLOGIES:-moore:2:2 er:0.5}; do
    for shape in ${SHAPES:-allgather:blocking alltoallv:nonblocking}; do
      for bytes in ${BYTES:-4 1024 65536}; do
        rm -f "$work"/rows.*
        for ((job = 0; job < jobs; ++job)); do
          rules=$work/rules
          rm -f "$rules"
          for pass in learn reuse; do
            setting=(-x NBRCOMB_RULES_OUT="$rules")
            [[ $pass == reuse ]] && setting=(-x NBRCOMB_RULES="$rules")
            rm -f "$work"/report.*
            mpirun --oversubscribe -np "$np" -x LD_PRELOAD="$build/lib/libnbrcomb.so" -x NBRCOMB_REPORT="$work/report" \
              "${setting[@]}" "$build/bin/nbrbench" --topology "$topology" --collective "${shape%:*}" \
              --form "${shape#*:}" --bytes "$bytes" --variant auto --runs 10 --reps 10 --warmup 1 >"$work/csv"
            # "auto mode decided by   F forced, R rules, T trial, E estimate; C trial calls"
            decided=$(sed -n 's/^ *auto mode decided by *\([0-9]*\) forced, \([0-9]*\) rules, \([0-9]*\) trial, \([0-9]*\) estimate; \([0-9]*\) trial calls.*/\1,\2,\3,\4,\5/p' \
              "$work"/report.0.txt)
            # ratio,p_slower,p_faster,verdict,decided
            awk -F, -v decided="${decided:-0,0,0,0,0}" '
              NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
              $col["variant"] == "auto" {
                ratio = $col["ratio_to_native"]; slower = $col["p_slower"]; faster = $col["p_faster"]
                verdict = ratio <= 0.97 && faster <= 0.05 ? "faster" : ratio >= 1.03 && slower <= 0.05 ? "slower" : "tie"
                print ratio "," slower "," faster "," verdict "," decided
              }' "$work/csv" >>"$work/rows.$pass"
          done
        done
        for pass in learn reuse; do
          # The median job by ratio, with the least and greatest ratio beside it.
          sort -t, -g -k1,1 "$work/rows.$pass" | awk -F, -v n="$jobs" -v pass="$pass" \
            -v prefix="$np,$topology,${shape%:*},${shape#*:},$bytes" '
            NR == 1 { least = $1 } { greatest = $1 }
            NR == int((n + 1) / 2) { median = $0 }
            END { split(median, f, ","); rest = substr(median, length(f[1]) + 2)
                  print prefix "," pass "," f[1] "," least "," greatest "," rest }'
        done
      done
    done
  done
done
