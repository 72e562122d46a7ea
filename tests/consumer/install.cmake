# SPDX-License-Identifier: MIT
# Fixture for the find_package consumer test: install the build tree BUILD_DIR into a fresh PREFIX.
#   cmake -DBUILD_DIR=<build> -DPREFIX=<dir> [-DCONFIG=<config>] -P install.cmake
file(REMOVE_RECURSE "${PREFIX}")  # no headers left over from an earlier install
set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed: ${rc}")
endif()
