# SPDX-License-Identifier: MIT
# Runs a scene program into a folder and checks that it wrote its files.
#   cmake -DPROGRAM=<scene program> -DOUT=<folder> -DFILES=<file;file;...> [-DARGS=<arg;...>] -P run_scene.cmake
# ARGS: more arguments after the folder (a smaller size, where the full one would cost CI minutes).
# Every file must exist and be non-empty; a .png must start with the PNG signature, and
# scenes.html must link every picture of the scene.
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND "${PROGRAM}" "${OUT}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed (${rc}):\n${out}\n${err}")
endif()
foreach(f IN LISTS FILES)
  set(p "${OUT}/${f}")
  if(NOT EXISTS "${p}")
    message(FATAL_ERROR "${PROGRAM} did not write ${f}")
  endif()
  file(SIZE "${p}" size)
  if(size EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} wrote an empty ${f}")
  endif()
  if(f MATCHES "\\.png$")
    file(READ "${p}" head LIMIT 8 HEX)
    if(NOT head STREQUAL "89504e470d0a1a0a")
      message(FATAL_ERROR "${f} is not a PNG file (starts with ${head})")
    endif()
    file(READ "${OUT}/scenes.html" html)
    string(FIND "${html}" "src=\"${f}\"" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "scenes.html does not show ${f}")
    endif()
  endif()
endforeach()
message(STATUS "${PROGRAM}: wrote ${FILES}")
