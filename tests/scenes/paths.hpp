// SPDX-License-Identifier: MIT
// Scene tests on both of the solver's paths: in the order given (SolverSettings::colouring off, the
// default) and coloured (on, with the wide rows it enables: the path a task system's workers take,
// the same bits for every number of workers, tests/scenes/test_threads.cpp). The order the contacts
// are solved in changes the result within the solver's tolerances (docs/solver.md), so each path is
// held to every criterion; where one path misses one, that path's case alone is marked [!mayfail].
#pragma once

#include <type_traits>

#include "catch.hpp"

namespace scenes {

/// A scene world (scenes::World<S, D>) on one of the solver's paths.
template <class Base>
struct OnPath : Base {
    explicit OnPath(bool coloured) { this->solver.settings.colouring = coloured; }
};

/// run(coloured), run once per path and kept, for a result several cases check: each lambda type
/// has its own two.
template <class Run>
const std::invoke_result_t<Run&, bool>& once_per_path(Run run, bool coloured)
{
    using Result = std::invoke_result_t<Run&, bool>;
    if (coloured) {
        static const Result r = run(true);
        return r;
    }
    static const Result r = run(false);
    return r;
}

}  // namespace scenes

// PATHS_CASE(name, tags, given_marks, coloured_marks) { body }: two test cases running one body,
// which sees `bool coloured`: in the order given (false; tags and given_marks) and coloured ("(coloured)"
// after the name; tags, "[coloured]" and coloured_marks). The marks are "" or "[!mayfail]".
#define IMPULSE_PATHS_JOIN2(a, b) a##b
#define IMPULSE_PATHS_JOIN(a, b) IMPULSE_PATHS_JOIN2(a, b)
#define IMPULSE_PATHS_CASE_AT(fn, name, tags, given_marks, coloured_marks)          \
    static void fn(bool coloured);                                                   \
    TEST_CASE(name, tags given_marks) { fn(false); }                                 \
    TEST_CASE(name " (coloured)", tags "[coloured]" coloured_marks) { fn(true); }    \
    static void fn(bool coloured)
#define PATHS_CASE(name, tags, given_marks, coloured_marks) \
    IMPULSE_PATHS_CASE_AT(IMPULSE_PATHS_JOIN(paths_case_, __LINE__), name, tags, given_marks, coloured_marks)
