# SPDX-License-Identifier: MIT
# Fails when Doxygen's HTML shows markup it did not render: Doxygen reports no warning for a table
# row it swallowed into a code span, or a link it could not resolve, but the page shows the raw
# text. Run by the docs target after Doxygen:
#   cmake -DHTML_DIR=<build>/docs/html -P check_html.cmake
# It reads every page except the source listings (*_source.html, which show the headers' comments
# as they are written) and looks for:
#   - Doxygen commands as text: \ilinebr (its line break inside table cells), \ref, @ref and the
#     other commands a page or comment uses, escaped into the page;
#   - HTML of a table as text (&lt;/td&gt;, &lt;tr ...): a table cell that swallowed the row's end;
#   - a Markdown table's delimiter row as text (|---|): a table that was not recognised;
#   - a link to a .md file: a Markdown link Doxygen did not resolve to a page;
#   - &lsquo;: Doxygen 1.9 ends a code span at an apostrophe (`vn' is read as a quotation), and
#     the rest of the paragraph's code spans shift.
cmake_minimum_required(VERSION 3.16)
if(NOT IS_DIRECTORY "${HTML_DIR}")
  message(FATAL_ERROR "check_html.cmake: HTML_DIR '${HTML_DIR}' is not a directory")
endif()

# One pattern and the reason it is reported per number (not a list: the patterns hold brackets,
# which CMake's lists treat as grouping). The pages are read with ';' turned into ',' (a list of
# matches would split at each ';'), so HTML entities end in ',' here.
set(pattern_1 "[\\@](ilinebr|ref|tparam|param|brief|returns?|note|see|sa|file|page|section|subsection|anchor|code|endcode|verbatim|endverbatim|f\\$|f\\[|f\\])[^a-zA-Z]")
set(reason_1 "a Doxygen command shown as text")
set(pattern_2 "&lt,/?(td|tr|th|table)[ &]")
set(reason_2 "table HTML shown as text (a cell swallowed the end of its row)")
set(pattern_3 "\\|[ ]*:?---+:?[ ]*\\|")
set(reason_3 "a Markdown table that was not rendered")
set(pattern_4 "href=\"[^\":]*\\.md(#[^\"]*)?\"")
set(reason_4 "a link to a .md file that Doxygen did not resolve to a page")
set(pattern_5 "&lsquo,")
set(reason_5 "a code span ended by an apostrophe (Doxygen 1.9 reads `x' as a quotation)")

file(GLOB pages "${HTML_DIR}/*.html")
set(problems 0)
foreach(page IN LISTS pages)
  if(page MATCHES "_source\\.html$")
    continue()
  endif()
  file(READ "${page}" html)
  string(REPLACE ";" "," html "${html}")
  get_filename_component(name "${page}" NAME)
  foreach(i RANGE 1 5)
    string(REGEX MATCHALL "${pattern_${i}}" found "${html}")
    set(reason "${reason_${i}}")
    list(REMOVE_DUPLICATES found)
    foreach(match IN LISTS found)
      # Show the text around the match's first place (a paragraph is one long line).
      string(FIND "${html}" "${match}" at)
      math(EXPR from "${at} - 60")
      if(from LESS 0)
        set(from 0)
      endif()
      string(SUBSTRING "${html}" ${from} 160 excerpt)
      string(REPLACE "\n" " " excerpt "${excerpt}")
      message("${name}: ${reason}:\n    ...${excerpt}...")
      math(EXPR problems "${problems} + 1")
    endforeach()
  endforeach()
endforeach()

if(problems GREATER 0)
  message(FATAL_ERROR "docs: ${problems} place(s) in the HTML where Doxygen's markup was not rendered")
endif()
message(STATUS "docs: no unrendered markup in ${HTML_DIR}")
