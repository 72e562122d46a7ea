# SPDX-License-Identifier: MIT
# Runs impulse-contact once and checks its exit status, standard output and standard error.
#   cmake -DEXE=<program> [-DARGS=<a;b>] [-DSTDIN=<file>] [-DSTATUS=<n>] [-DSTDOUT=<file>]
#         [-DSTDOUT_HAS=<file>] [-DSTDOUT_TO=<file>] [-DSTDERR=<file>] -P run_cli.cmake
# STDOUT: the exact expected output; STDOUT_HAS: text the output must contain; STDOUT_TO: the
# output goes to that file (/dev/full: every write fails) and is not checked; none of them: no
# output at all. STDERR: the exact expected messages; not given: nothing on standard error.
if(NOT DEFINED STATUS OR STATUS STREQUAL "")
  set(STATUS 0)
endif()
set(input_args "")
if(STDIN)
  set(input_args INPUT_FILE "${STDIN}")
endif()
set(output_args OUTPUT_VARIABLE out)
if(STDOUT_TO)
  set(output_args OUTPUT_FILE "${STDOUT_TO}")
endif()
execute_process(COMMAND "${EXE}" ${ARGS} ${input_args}
  RESULT_VARIABLE status ${output_args} ERROR_VARIABLE err)

set(failures "")
if(NOT status STREQUAL STATUS)
  string(APPEND failures "exit status: expected ${STATUS}, got ${status}\n")
endif()
if(STDOUT)
  file(READ "${STDOUT}" want)
  if(NOT out STREQUAL want)
    string(APPEND failures "standard output: expected\n${want}--- got\n${out}---\n")
  endif()
elseif(STDOUT_HAS)
  file(READ "${STDOUT_HAS}" want)
  string(FIND "${out}" "${want}" at)
  if(at EQUAL -1)
    string(APPEND failures "standard output does not contain\n${want}--- got\n${out}---\n")
  endif()
elseif(NOT STDOUT_TO AND NOT out STREQUAL "")
  string(APPEND failures "standard output: expected nothing, got\n${out}---\n")
endif()
set(want_err "")
if(STDERR)
  file(READ "${STDERR}" want_err)
endif()
if(NOT err STREQUAL want_err)
  string(APPEND failures "standard error: expected\n${want_err}--- got\n${err}---\n")
endif()

if(failures)
  message(FATAL_ERROR "${EXE} ${ARGS}:\n${failures}")
endif()
