# SPDX-License-Identifier: MIT
# The docs target's HTML check (docs/check_html.cmake) against pages written here: it must fail
# on each kind of unrendered markup, saying which, and pass a page that only looks alike.
#   cmake -DCHECK=<docs/check_html.cmake> -DWORK=<scratch dir> -P docs_check.cmake

# check(<name> <expected: "pass" or a reason the check prints> <html> [<file name>]): a folder
# holding one page, page.html unless named.
function(check name expected html)
  set(file page.html)
  if(ARGC GREATER 3)
    set(file "${ARGV3}")
  endif()
  set(dir "${WORK}/${name}")
  file(REMOVE_RECURSE "${dir}")
  file(WRITE "${dir}/${file}" "<html><body><div class=\"textblock\">${html}</div></body></html>\n")
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DHTML_DIR=${dir}" -P "${CHECK}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(expected STREQUAL "pass")
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${name}: the check failed a page it should pass:\n${out}")
    endif()
  else()
    string(FIND "${out}" "${expected}" at)
    if(rc EQUAL 0 OR at EQUAL -1)
      message(FATAL_ERROR "${name}: expected the check to fail with '${expected}', got (${rc}):\n${out}")
    endif()
  endif()
endfunction()

# What Doxygen 1.9.4 wrote for the conventions table when a code span held `vn' (the cell swallowed
# the rest of the row and the next one).
check(table_row_in_a_cell "a Doxygen command shown as text"
  "<td><code>\\ilinebr &lt;/td&gt; &lt;/tr&gt;&lt;/table&gt;</code></td>")
check(escaped_table_html "table HTML shown as text"
  "<p>&lt;tr class=\"markdownTableRowOdd\"&gt; x</p>")
# A \ref that reached the page as text (a Markdown link whose text spans two lines).
check(raw_ref "a Doxygen command shown as text"
  "<p>see (@ref /src/docs/batch.md \"the batch kernel\").</p>")
check(unrendered_table "a Markdown table that was not rendered"
  "<p>| header | what |\n|---|---|\n| a | b |</p>")
check(unresolved_md_link "a link to a .md file"
  "<p><a href=\"docs/solver.md\">the solver</a></p>")
check(apostrophe_in_code "a code span ended by an apostrophe"
  "<p>the speed after is &lsquo;vn&rsquo; = -e*vn<code>.</code></p>")
# Alike but fine: a rendered table, a link to a page and one to a web page's .md, a C++ string
# with a backslash; and a source listing, which shows the headers' comments as written.
check(rendered_page "pass"
  "<table class=\"markdownTable\"><tr><td>a</td></tr></table>\n<a class=\"el\" href=\"solver.html\">solver</a> <a href=\"https://example.org/README.md\">x</a>\n<div class=\"fragment\">printf(\"%g\\n\", x)</div>")
check(source_listing "pass" "<div class=\"line\">/// see \\ref conventions</div>" axis_8hpp_source.html)
