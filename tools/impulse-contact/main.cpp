// SPDX-License-Identifier: MIT
// impulse-contact: resolves contacts given as CSV and prints the results as CSV.
//   impulse-contact [FILE | -]        (impulse-contact --help for the columns)
#include <iostream>
#include <string>
#include <vector>

#include "csv_contacts.hpp"

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
    const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
    return impulse_contact::cli(args, std::cin, std::cout, std::cerr);
}
