// Under MPI_THREAD_MULTIPLE (the runs set NBRCOMB_TEST_THREAD_LEVEL=multiple, CMakeLists.txt),
// threads of one process call the collectives at once, each on a topology communicator of its own,
// in every mode: every call through the library leaves native MPI's bytes, while the others' calls
// wait and run beside it.
#include "all_ranks.h"
#include "differential.h"
#include "mode_cases.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace nbrcomb::test;

namespace {

constexpr int threads = 4;
constexpr int rounds = 3;

// Every collective in every form, rounds times, through the library and natively, on comm; the
// first difference, or "".
std::string run_every_collective(MPI_Comm comm, const TypeCatalog& catalog) {
    std::vector<Form> forms{Form::blocking, Form::nonblocking};
    if (has_persistent_collectives) forms.push_back(Form::persistent);
    for (int round = 0; round < rounds; ++round) {
        for (const Collective collective : all_collectives) {
            for (const Form form : forms) {
                Call call = make_call(collective, comm, catalog, {.types = &catalog.pair("int"), .units = 2});
                call.form = form;
                const Outcome library = run(Path::library, call);
                const Outcome native = run(Path::native, call);
                if (library.code != native.code || library.recv_bytes != native.recv_bytes) {
                    std::ostringstream what;
                    what << name_of(collective) << " " << name_of(form) << ", round " << round << ": code "
                         << library.code << " against native " << native.code;
                    return what.str();
                }
            }
        }
    }
    return "";
}

class Threads : public ::testing::TestWithParam<ModeCase> {};

TEST_P(Threads, threads_on_communicators_of_their_own_get_natives_bytes) {
    ASSERT_TRUE(expect_library_loaded());
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    ASSERT_EQ(level, MPI_THREAD_MULTIPLE) << "the MPI does not provide MPI_THREAD_MULTIPLE";
    const TypeCatalog catalog;
    std::vector<Comm> comms;
    for (int t = 0; t < threads; ++t)
        comms.push_back(create_dist_graph(MPI_COMM_WORLD, complete_digraph(size_of(MPI_COMM_WORLD)),
                                          {.hints = GetParam().hints}));
    std::vector<std::string> differences(threads);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] { differences[t] = run_every_collective(comms[t], catalog); });
    for (std::thread& worker : workers) worker.join();
    for (int t = 0; t < threads; ++t) EXPECT_EQ(differences[t], "") << "thread " << t;
    EXPECT_TRUE(on_all_ranks(!HasFailure()));
}

INSTANTIATE_TEST_SUITE_P(EveryMode, Threads, ::testing::ValuesIn(all_modes()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
