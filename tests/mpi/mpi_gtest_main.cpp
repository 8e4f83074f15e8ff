// Runs the MPI tests on every rank. A test fails when it fails on any rank; only rank 0
// prints, and it reports the failures of the other ranks as its own.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>

#include <ctime>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

// One failed assertion, serialized as "file\0line\0message\0" to travel to rank 0.
void append_failure(std::string& out, const testing::TestPartResult& part) {
    out += part.file_name() ? part.file_name() : "unknown file";
    out += '\0';
    out += std::to_string(part.line_number());
    out += '\0';
    out += part.message();
    out += '\0';
}

std::vector<std::string> split_fields(const std::string& text) {
    std::vector<std::string> fields;
    std::istringstream in(text);
    for (std::string field; std::getline(in, field, '\0');) fields.push_back(field);
    return fields;
}

// Called at the end of every test, before the result printer (listeners hear end events in
// reverse order), so rank 0's printed result already includes the other ranks' failures.
class AllRanksListener : public testing::EmptyTestEventListener {
public:
    void OnTestEnd(const testing::TestInfo& info) override {
        std::string failures;
        const testing::TestResult& result = *info.result();
        for (int i = 0; i < result.total_part_count(); ++i)
            if (result.GetTestPartResult(i).failed()) append_failure(failures, result.GetTestPartResult(i));

        int rank = 0, size = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        const int length = static_cast<int>(failures.size());
        std::vector<int> lengths(rank == 0 ? size : 0), displs(lengths.size());
        MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
        int total = 0;
        for (std::size_t r = 0; r < lengths.size(); ++r) {
            displs[r] = total;
            total += lengths[r];
        }
        std::string all(static_cast<std::size_t>(total), '\0');
        MPI_Gatherv(failures.data(), length, MPI_CHAR, all.data(), lengths.data(), displs.data(), MPI_CHAR, 0,
                    MPI_COMM_WORLD);

        for (int r = 1; r < static_cast<int>(lengths.size()); ++r) {
            const auto fields = split_fields(all.substr(displs[r], lengths[r]));
            for (std::size_t f = 0; f + 2 < fields.size(); f += 3) {
                // ADD_FAILURE_AT starts its message with this line itself.
                std::string_view message = fields[f + 2];
                if (message.starts_with("Failed\n")) message.remove_prefix(7);
                ADD_FAILURE_AT(fields[f].c_str(), std::stoi(fields[f + 1])) << "on rank " << r << ": " << message;
            }
        }
    }
};

}  // namespace

int main(int argc, char** argv) {
    // NBRCOMB_TEST_THREAD_LEVEL=multiple: the tests run threads that call MPI at once (threads_test).
    const char* level = std::getenv("NBRCOMB_TEST_THREAD_LEVEL");
    if (level != nullptr && std::string_view(level) == "multiple") {
        int provided = MPI_THREAD_SINGLE;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    testing::InitGoogleTest(&argc, argv);

    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    // With --gtest_shuffle all ranks must draw the same order, or they would meet in different tests.
    int seed = GTEST_FLAG_GET(random_seed);
    if (rank == 0 && seed == 0) seed = static_cast<int>(std::time(nullptr) % 99999) + 1;
    MPI_Bcast(&seed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    GTEST_FLAG_SET(random_seed, seed);

    testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
    if (rank != 0) delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new AllRanksListener);

    int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed;
}
