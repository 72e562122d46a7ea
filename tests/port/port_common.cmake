# SPDX-License-Identifier: MIT
# Shared by the port scripts: reading ports/impulse/portfile.cmake the way the checks need it.

# impulse_port_call(<portfile text> <function> <out>): the argument text of the first call
# `<function>(...)` in the portfile (calls in comments are skipped; no nested parentheses).
function(impulse_port_call text fn out)
  string(REGEX REPLACE "#[^\n]*" "" code "${text}")  # drop comments
  string(REGEX MATCH "(^|[^A-Za-z0-9_])${fn}[ \t]*\\(([^)]*)\\)" m "${code}")
  if(NOT m)
    set(${out} "" PARENT_SCOPE)
    set(${out}-NOTFOUND TRUE PARENT_SCOPE)
    return()
  endif()
  set(${out} "${CMAKE_MATCH_2}" PARENT_SCOPE)
endfunction()

# impulse_port_configure_options(<portfile text> <out>): the -D options the portfile passes to
# vcpkg_cmake_configure, as a list.
function(impulse_port_configure_options text out)
  impulse_port_call("${text}" vcpkg_cmake_configure args)
  string(REGEX MATCHALL "-D[A-Za-z0-9_]+(:[A-Z]+)?=[^ \t\n\"]+" opts "${args}")
  set(${out} "${opts}" PARENT_SCOPE)
endfunction()

# impulse_port_config_path(<portfile text> <out>): CONFIG_PATH of vcpkg_cmake_config_fixup.
function(impulse_port_config_path text out)
  impulse_port_call("${text}" vcpkg_cmake_config_fixup args)
  string(REGEX MATCH "CONFIG_PATH[ \t\n]+\"?([^ \t\n\")]+)" m "${args}")
  set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()
