# SPDX-License-Identifier: MIT
# The vcpkg port's build steps with plain CMake (vcpkg itself is not needed): configure impulse's
# source with the options ports/impulse/portfile.cmake passes to vcpkg_cmake_configure (read from
# the portfile, so the two cannot drift), Release only (VCPKG_BUILD_TYPE release), build the
# `install` target into a package directory as vcpkg_cmake_install does, then copy the package
# into an "installed" tree as vcpkg does after the port finishes. port_layout.cmake and the
# consumer build check the result.
#   cmake -DSOURCE_DIR=<impulse> -DWORK=<dir> -DGENERATOR=<gen> [-DMAKE_PROGRAM=...]
#         [-DCXX_COMPILER=...] [-DEIGEN3_DIR=...] [-DTOOLCHAIN_FILE=...] -P port_stage.cmake
cmake_minimum_required(VERSION 3.16)
include("${CMAKE_CURRENT_LIST_DIR}/port_common.cmake")

foreach(v SOURCE_DIR WORK GENERATOR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "port_stage.cmake: -D${v}=... is required")
  endif()
endforeach()

file(READ "${SOURCE_DIR}/ports/impulse/portfile.cmake" portfile)
impulse_port_configure_options("${portfile}" port_options)
if(NOT port_options)
  message(FATAL_ERROR "portfile.cmake: no -D options found in vcpkg_cmake_configure(...)")
endif()
message(STATUS "portfile options: ${port_options}")

set(build "${WORK}/build")
set(package "${WORK}/package")      # vcpkg: packages/impulse_<triplet>
set(installed "${WORK}/installed")  # vcpkg: installed/<triplet>
file(REMOVE_RECURSE "${build}" "${package}" "${installed}")

set(args -S "${SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
  -DCMAKE_BUILD_TYPE=Release
  "-DCMAKE_INSTALL_PREFIX=${package}"
  # What vcpkg_cmake_configure adds to every port's configure on its own:
  -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_INSTALL_BINDIR=bin
  -DFETCHCONTENT_FULLY_DISCONNECTED=ON
  -DCMAKE_EXPORT_NO_PACKAGE_REGISTRY=ON -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
  ${port_options})
foreach(pair "MAKE_PROGRAM;CMAKE_MAKE_PROGRAM" "CXX_COMPILER;CMAKE_CXX_COMPILER"
             "EIGEN3_DIR;Eigen3_DIR" "TOOLCHAIN_FILE;CMAKE_TOOLCHAIN_FILE")
  list(GET pair 0 in)
  list(GET pair 1 var)
  if(${in})
    list(APPEND args "-D${var}=${${in}}")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "port build: ${what} failed (${rc}): ${ARGN}")
  endif()
endfunction()

run(configure "${CMAKE_COMMAND}" ${args})
run("build of target install" "${CMAKE_COMMAND}" --build "${build}" --config Release --target install)

# A header-only port builds nothing: the options must keep tests and examples out of the build.
file(GLOB_RECURSE objects "${build}/*.o" "${build}/*.obj")
if(objects)
  list(GET objects 0 first)
  message(FATAL_ERROR "the port's build compiled something (${first}): tests or examples not off?")
endif()

file(MAKE_DIRECTORY "${installed}")
file(COPY "${package}/" DESTINATION "${installed}")
file(REMOVE_RECURSE "${package}")  # as vcpkg does: nothing may still point into it
message(STATUS "installed tree: ${installed}")
