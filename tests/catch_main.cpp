// SPDX-License-Identifier: MIT
// Catch2 2.x only: the test runner's main(), compiled once (Catch2 3.x ships Catch2WithMain).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
