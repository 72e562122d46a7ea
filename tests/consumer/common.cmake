# SPDX-License-Identifier: MIT
# Shared by the three consumer projects, after each has made impulse::impulse available its own way.
if(NOT TARGET impulse::impulse)
  message(FATAL_ERROR "impulse::impulse is not defined")
endif()
# As a subproject, impulse must not add its tests, examples or helper targets to ours.
foreach(t impulse_tests impulse_header_check impulse_noexcept_check impulse_warnings run-examples)
  if(TARGET ${t})
    message(FATAL_ERROR "impulse leaked its internal target '${t}' into the consumer")
  endif()
endforeach()

add_executable(impulse_consumer "${CMAKE_CURRENT_LIST_DIR}/main.cpp")
target_link_libraries(impulse_consumer PRIVATE impulse::impulse)
# No target_compile_features here: C++17 must come from impulse::impulse itself.
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(impulse_consumer PRIVATE -Wall -Wextra -Wpedantic -Werror)
endif()
