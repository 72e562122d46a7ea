# SPDX-License-Identifier: MIT
# docs/cli.md holds impulse-contact's --help text: the ```text block right after the line that
# starts with "<!-- impulse-contact --help:" must be the program's output, byte for byte.
#   cmake -DEXE=<impulse-contact> -DPAGE=<docs/cli.md> -DOUT_DIR=<scratch folder> -P check_help_page.cmake
# On a difference it writes both texts to OUT_DIR, to be compared with diff.
file(READ "${PAGE}" page)
set(marker "<!-- impulse-contact --help:")
string(FIND "${page}" "${marker}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${PAGE}: no line starting with '${marker}'")
endif()
string(SUBSTRING "${page}" ${at} -1 rest)
string(FIND "${rest}" "\n" eol)
string(SUBSTRING "${rest}" ${eol} -1 rest)
set(open "\n```text\n")
string(LENGTH "${open}" open_length)
string(SUBSTRING "${rest}" 0 ${open_length} opening)
if(NOT opening STREQUAL open)
  message(FATAL_ERROR "${PAGE}: the line after '${marker}...' must open a ```text block")
endif()
string(SUBSTRING "${rest}" ${open_length} -1 rest)
string(FIND "${rest}" "\n```\n" end)
if(end EQUAL -1)
  message(FATAL_ERROR "${PAGE}: the ```text block after '${marker}...' is not closed")
endif()
math(EXPR end "${end} + 1")
string(SUBSTRING "${rest}" 0 ${end} block)

execute_process(COMMAND "${EXE}" --help RESULT_VARIABLE status OUTPUT_VARIABLE help ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "${EXE} --help: exit status ${status}, messages:\n${err}")
endif()
if(NOT help STREQUAL block)
  file(WRITE "${OUT_DIR}/help.txt" "${help}")
  file(WRITE "${OUT_DIR}/page-block.txt" "${block}")
  message(FATAL_ERROR "${PAGE}: the --help block differs from the program's output:\n"
    "  diff -u ${OUT_DIR}/page-block.txt ${OUT_DIR}/help.txt\n"
    "(regenerate the block from `impulse-contact --help`)")
endif()
