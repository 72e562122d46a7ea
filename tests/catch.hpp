// SPDX-License-Identifier: MIT
/// \file catch.hpp
/// One include for the tests, whichever Catch2 is installed: 3.x (split headers, linked with
/// Catch2::Catch2WithMain; the build defines IMPULSE_CATCH2_V3) or 2.13 (single header, main in
/// catch_main.cpp). Tests write `#include "catch.hpp"` and use `Approx(x)`, TEST_CASE,
/// TEMPLATE_TEST_CASE, GENERATE and the floating-point matchers (WithinAbs, WithinRel).
#pragma once

#ifdef IMPULSE_CATCH2_V3
#include <catch2/catch_approx.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>
#else
#include <catch2/catch.hpp>
// Catch2 2.x names it Catch::Detail::Approx; give it the 3.x name so one spelling works.
namespace Catch {
using Detail::Approx;
}  // namespace Catch
#endif

using Catch::Approx;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
