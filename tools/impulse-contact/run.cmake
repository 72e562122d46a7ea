# SPDX-License-Identifier: MIT
# Runs impulse-contact on one input file and writes its output to a file (run-impulse-contact).
#   cmake -DEXE=<impulse-contact> -DINPUT=<file.csv> -DOUTPUT=<result.csv> -P run.cmake
execute_process(COMMAND "${EXE}" "${INPUT}" OUTPUT_FILE "${OUTPUT}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "impulse-contact ${INPUT} failed (${status})")
endif()
file(READ "${OUTPUT}" result)
message("impulse-contact ${INPUT} > ${OUTPUT}\n${result}")
