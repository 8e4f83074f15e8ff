// The README's settings table is the registry's (src/settings/config.h): a setting added, renamed or
// changed in the code fails here until the README says so.
#include "src/settings/config.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace {

// The lines of the README's table that begins with header, one per line, each ending in '\n'.
std::string readme_table(const std::string& header) {
    std::ifstream readme(NBRCOMB_README);
    std::string table, line;
    bool inside = false;
    while (std::getline(readme, line)) {
        if (line.starts_with(header)) inside = true;
        if (!inside) continue;
        if (!line.starts_with("|")) break;
        table += line + "\n";
    }
    return table;
}

}  // namespace

TEST(SettingsTable, readme_gives_the_registrys_table) {
    const std::string expected = nbrcomb::detail::settings_table();
    const std::string header = expected.substr(0, expected.find('\n'));
    EXPECT_EQ(readme_table(header), expected) << "README.md's settings table should read:\n" << expected;
}
