# SPDX-License-Identifier: MIT
# cmake -DPROGRAM=<exe> -DEXPECTED=<text> -P run_and_expect.cmake
# Runs PROGRAM and fails unless it exits 0 and its standard output contains EXPECTED verbatim.
execute_process(COMMAND "${PROGRAM}" OUTPUT_VARIABLE out RESULT_VARIABLE rc)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}")
endif()
string(FIND "${out}" "${EXPECTED}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "expected the output to contain:\n  ${EXPECTED}")
endif()
