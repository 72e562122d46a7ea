# SPDX-License-Identifier: MIT
# Builds and runs one consumer project made from a ```cmake block of README.md or docs/install.md
# (tests/CMakeLists.txt writes it to CONSUMER at configure time, with main.cpp beside it).
#
#   cmake -DKIND=<route> -DSOURCE_DIR=<impulse source> -DCONSUMER=<dir> -DBINARY=<dir>
#         -DCTEST=<ctest> [-DGIT=<git>] -P markdown_route.cmake -- <ctest --build-and-test options>
#
# KIND says what the block expects to find beside it, and this script puts it there first:
#   fetch_content           impulse's git history (the block's GIT_TAG must be in it: else skipped)
#   add_subdirectory[_export]  impulse's source tree at third_party/impulse (a symbolic link)
#   copy                    impulse's headers at third_party/impulse/include/impulse
#   find_package            nothing: the test passes the installed prefix in the options
# A test that cannot run here prints "skipped: <why>" (the test's SKIP_REGULAR_EXPRESSION).

# The options after "--" go to ctest --build-and-test unchanged.
set(options "")
set(after_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_separator)
    list(APPEND options "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()

if(KIND STREQUAL "fetch_content")
  # The block pins a commit of impulse's history; it is fetched from this source tree's history.
  if(NOT GIT)
    message("skipped: git was not found, and the block fetches impulse with git")
    return()
  endif()
  execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" rev-parse --show-toplevel
    OUTPUT_VARIABLE top RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  get_filename_component(top "${top}" REALPATH)
  get_filename_component(source "${SOURCE_DIR}" REALPATH)
  if(NOT rc EQUAL 0 OR NOT top STREQUAL source)
    message("skipped: ${SOURCE_DIR} is not a git checkout, so it has no history to fetch from")
    return()
  endif()
  file(READ "${CONSUMER}/CMakeLists.txt" project)
  if(NOT project MATCHES "GIT_TAG[ \t]+([0-9a-f]+)")
    message(FATAL_ERROR "the FetchContent block has no GIT_TAG of hexadecimal digits")
  endif()
  set(commit "${CMAKE_MATCH_1}")
  string(LENGTH "${commit}" length)
  if(NOT length EQUAL 40)
    message(FATAL_ERROR "GIT_TAG ${commit}: pin a commit by its full SHA (40 hexadecimal digits)")
  endif()
  execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" merge-base --is-ancestor "${commit}" HEAD
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message("skipped: commit ${commit} is not in the history of ${SOURCE_DIR} (a shallow clone, "
            "or a history rewritten since the block was written)")
    return()
  endif()
elseif(KIND MATCHES "^add_subdirectory")
  file(REMOVE_RECURSE "${CONSUMER}/third_party")
  file(MAKE_DIRECTORY "${CONSUMER}/third_party")
  file(CREATE_LINK "${SOURCE_DIR}" "${CONSUMER}/third_party/impulse" SYMBOLIC)
elseif(KIND STREQUAL "copy")
  file(REMOVE_RECURSE "${CONSUMER}/third_party")
  file(COPY "${SOURCE_DIR}/include/impulse" DESTINATION "${CONSUMER}/third_party/impulse/include")
elseif(NOT KIND STREQUAL "find_package")
  message(FATAL_ERROR "unknown route '${KIND}'")
endif()

file(REMOVE_RECURSE "${BINARY}")  # a fresh configure: nothing left from an earlier run
execute_process(
  COMMAND "${CTEST}" --build-and-test "${CONSUMER}" "${BINARY}" ${options} --test-command my_engine
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the ${KIND} block did not configure, build and run (ctest --build-and-test: ${rc})")
endif()
