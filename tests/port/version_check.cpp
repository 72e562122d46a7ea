// SPDX-License-Identifier: MIT
// The version macros in config.hpp agree with `project(impulse VERSION ...)` in CMakeLists.txt,
// which CMake passes in as IMPULSE_PROJECT_VERSION_{MAJOR,MINOR,PATCH} (and which the CMake
// package's version file and the vcpkg port carry). A disagreement fails the build of this file;
// the test running it checks the printed version against the project's once more.
#include <cstdio>

#include <impulse/config.hpp>

#if !defined(IMPULSE_PROJECT_VERSION_MAJOR) || !defined(IMPULSE_PROJECT_VERSION_MINOR) || \
    !defined(IMPULSE_PROJECT_VERSION_PATCH)
#error "build this file with the project version passed in as IMPULSE_PROJECT_VERSION_*"
#endif

static_assert(IMPULSE_VERSION_MAJOR == IMPULSE_PROJECT_VERSION_MAJOR,
              "IMPULSE_VERSION_MAJOR in config.hpp differs from project(VERSION) in CMakeLists.txt");
static_assert(IMPULSE_VERSION_MINOR == IMPULSE_PROJECT_VERSION_MINOR,
              "IMPULSE_VERSION_MINOR in config.hpp differs from project(VERSION) in CMakeLists.txt");
static_assert(IMPULSE_VERSION_PATCH == IMPULSE_PROJECT_VERSION_PATCH,
              "IMPULSE_VERSION_PATCH in config.hpp differs from project(VERSION) in CMakeLists.txt");
// The combined number orders versions: major * 10000 + minor * 100 + patch.
static_assert(IMPULSE_VERSION == IMPULSE_PROJECT_VERSION_MAJOR * 10000 + IMPULSE_PROJECT_VERSION_MINOR * 100 +
                                     IMPULSE_PROJECT_VERSION_PATCH,
              "IMPULSE_VERSION is not major * 10000 + minor * 100 + patch");
static_assert(IMPULSE_VERSION_MINOR < 100 && IMPULSE_VERSION_PATCH < 100,
              "IMPULSE_VERSION has two decimal digits for minor and patch");

int main()
{
    std::printf("impulse %d.%d.%d\n", IMPULSE_VERSION_MAJOR, IMPULSE_VERSION_MINOR, IMPULSE_VERSION_PATCH);
    return 0;
}
