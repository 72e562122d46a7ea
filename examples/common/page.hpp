// SPDX-License-Identifier: MIT
// What every example that writes files shares: its output folder, text files, and its HTML page.
//
// Every page has one look (the style sheet below, inside the page: nothing is fetched from
// elsewhere): a title, a one-paragraph intro, sections, figures with captions that say what they
// show and what to look for, and the numbers the example measures in small tables.
//
//     page::Document doc("Rotation: a skidding disk", "<p>intro</p>", "one line: what to look for");
//     doc.section("The disk");
//     doc.figure("rigid-spin.svg", "Speed and rim speed over time. Look for ...");
//     page::Table t({"quantity", "value", "expected"});
//     t.row({"rolling speed", "2.667 m/s", "2.667 m/s (angular momentum)"});
//     doc.table(t);
//     doc.write(dir / "rigid.html");
//
// The lab's index.html links every <name>.html page in the folder: it reads the page's <title>,
// its one-line summary (<meta name="description">) and its figures (figures_of) back from the file.
#pragma once

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "markup.hpp"

namespace page {

/// The output folder: the first argument, or out/; created if missing.
inline std::filesystem::path output_folder(int argc, char** argv)
{
    const std::filesystem::path dir = argc > 1 ? std::filesystem::path(argv[1]) : std::filesystem::path("out");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    return dir;
}

/// Writes `text` to `path`; false if it could not be written completely.
inline bool write_text(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream f(path, std::ios::binary);
    f << text;
    return bool(f);
}

/// The whole file at `path`; empty if it cannot be read.
inline std::string read_text(const std::filesystem::path& path)
{
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

/// Plain text for HTML: &, <, >, " escaped.
using markup::escape;

/// `x` with `digits` decimals, then the unit if one is given: fixed(2.66667, 3, "m/s") is "2.667 m/s".
inline std::string fixed(double x, int digits, const std::string& unit = "")
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, x);
    return unit.empty() ? std::string(buf) : std::string(buf) + " " + unit;
}

/// `x` through a printf format that converts one double: formatted("%.1e m", 3.9e-21) is "3.9e-21 m".
inline std::string formatted(const char* format, double x)
{
    char buf[128];
    std::snprintf(buf, sizeof buf, format, x);
    return buf;
}

/// The style sheet every page carries.
inline const char* style()
{
    return "body { font-family: \"DejaVu Sans\", Verdana, sans-serif; max-width: 62em; margin: 1.5em auto; "
           "padding: 0 1.2em; background: #fbfbf9; color: #222; line-height: 1.45; }\n"
           "h1 { font-size: 1.7em; margin-bottom: 0.3em; }\n"
           "h2 { font-size: 1.3em; border-top: 1px solid #d8d8d0; padding-top: 0.8em; margin-top: 1.6em; }\n"
           "h3 { font-size: 1.05em; margin: 1.2em 0 0.4em; }\n"
           "p.intro { font-size: 1.05em; color: #333; }\n"
           "figure { margin: 1em 0 1.4em; }\n"
           "figure img { max-width: 100%; height: auto; border: 1px solid #d0d0c8; background: #fff; }\n"
           "figure img.pixels { image-rendering: pixelated; }\n"
           "figcaption { font-size: 0.92em; color: #444; max-width: 48em; margin-top: 0.35em; }\n"
           "table.numbers { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.92em; }\n"
           "table.numbers caption { text-align: left; font-weight: bold; padding-bottom: 0.3em; }\n"
           "table.numbers th, table.numbers td { border-bottom: 1px solid #e2e2da; padding: 0.25em 0.9em 0.25em 0; "
           "text-align: left; vertical-align: top; }\n"
           "table.numbers td.value { font-family: \"DejaVu Sans Mono\", monospace; white-space: nowrap; }\n"
           "pre { background: #f0f0ea; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }\n"
           "details { margin: 0.4em 0 1em; } summary { cursor: pointer; color: #335; }\n"
           ".cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(17em, 1fr)); gap: 1em; }\n"
           ".card { background: #fff; border: 1px solid #d8d8d0; border-radius: 4px; padding: 0.7em; }\n"
           ".card img { width: 100%; height: 11em; object-fit: contain; background: #fff; }\n"
           ".card h3 { margin-top: 0.2em; } .card p { font-size: 0.9em; margin: 0.3em 0; }\n"
           ".thumbs { display: grid; grid-template-columns: repeat(auto-fill, minmax(13em, 1fr)); gap: 0.7em; }\n"
           ".thumbs figure { margin: 0; } .thumbs img { width: 100%; height: 10em; object-fit: contain; }\n"
           "code { background: #efefe8; padding: 0 0.2em; }\n";
}

/// A small table of measured numbers: a header row, then rows of cells (HTML). The second column
/// is set as a value (monospace).
class Table {
public:
    explicit Table(std::vector<std::string> header, std::string caption = "")
        : header_(std::move(header)), caption_(std::move(caption))
    {
    }
    Table& row(std::vector<std::string> cells)
    {
        rows_.push_back(std::move(cells));
        return *this;
    }
    bool empty() const { return rows_.empty(); }

    std::string html() const
    {
        std::string s = "<table class=\"numbers\">\n";
        if (!caption_.empty()) s += "<caption>" + caption_ + "</caption>\n";
        s += "<tr>";
        for (const std::string& h : header_) s += "<th>" + h + "</th>";
        s += "</tr>\n";
        for (const auto& r : rows_) {
            s += "<tr>";
            for (std::size_t i = 0; i < r.size(); ++i) s += (i == 1 ? "<td class=\"value\">" : "<td>") + r[i] + "</td>";
            s += "</tr>\n";
        }
        return s + "</table>\n";
    }

    /// A table from tab-separated text: the first line is the header, each further line a row;
    /// cells are plain text (escaped).
    static Table from_tsv(const std::string& text, std::string caption = "")
    {
        std::vector<std::vector<std::string>> lines;
        std::size_t start = 0;
        while (start < text.size()) {
            std::size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            const std::string line = text.substr(start, end - start);
            start = end + 1;
            if (line.empty()) continue;
            std::vector<std::string> cells;
            std::size_t a = 0;
            for (;;) {
                const std::size_t b = line.find('\t', a);
                cells.push_back(escape(line.substr(a, b == std::string::npos ? std::string::npos : b - a)));
                if (b == std::string::npos) break;
                a = b + 1;
            }
            lines.push_back(std::move(cells));
        }
        Table t(lines.empty() ? std::vector<std::string>{} : lines.front(), std::move(caption));
        for (std::size_t i = 1; i < lines.size(); ++i) t.row(lines[i]);
        return t;
    }

private:
    std::vector<std::string> header_;
    std::string caption_;
    std::vector<std::vector<std::string>> rows_;
};

/// A figure: a picture (PNG, or SVG plot) with a caption that says what it shows and what to look
/// for. `width` 0 leaves the picture its own size (up to the page's width); `pixels` keeps the
/// pixels sharp when a small PNG is shown enlarged; `id` makes it a link target.
inline std::string figure(const std::string& src, const std::string& caption_html, const std::string& alt = "",
                          int width = 0, bool pixels = false, const std::string& id = "")
{
    std::string s = "<figure" + (id.empty() ? std::string() : " id=\"" + escape(id) + "\"") + ">\n<img src=\"" +
                    escape(src) + "\" alt=\"" + escape(alt.empty() ? src : alt) + "\"";
    if (width > 0) s += " width=\"" + std::to_string(width) + "\"";
    if (pixels) s += " class=\"pixels\"";
    return s + ">\n<figcaption>" + caption_html + "</figcaption>\n</figure>\n";
}

/// A text result: the file's name and its content, folded (the numbers worth reading are in the
/// page's tables; the file has them all).
inline std::string text_result(const std::string& file, const std::string& content)
{
    return "<details>\n<summary><a href=\"" + escape(file) + "\">" + escape(file) + "</a></summary>\n<pre>" +
           escape(content) + "</pre>\n</details>\n";
}

/// A self-contained HTML page: `title` as <title> and <h1>, `summary` (one line: what to look
/// for) as its description, then `body` (HTML) as it is.
inline std::string html(const std::string& title, const std::string& body, const std::string& summary = "")
{
    std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
                    escape(title) + "</title>\n";
    if (!summary.empty()) s += "<meta name=\"description\" content=\"" + escape(summary) + "\">\n";
    return s + "<style>\n" + style() + "</style>\n</head>\n<body>\n<h1>" + escape(title) + "</h1>\n" + body +
           "</body>\n</html>\n";
}

/// A page built in order: intro, then sections of figures, tables and text results.
class Document {
public:
    /// `intro_html`: one paragraph (no <p>), what the example is and does; `summary`: one line
    /// of plain text for the index, what to look for.
    Document(std::string title, std::string intro_html, std::string summary = "")
        : title_(std::move(title)), summary_(std::move(summary))
    {
        body_ = "<p class=\"intro\">" + intro_html + "</p>\n";
    }

    Document& section(const std::string& heading, const std::string& text_html = "", const std::string& id = "")
    {
        body_ += "<h2" + (id.empty() ? std::string() : " id=\"" + escape(id) + "\"") + ">" + heading + "</h2>\n";
        if (!text_html.empty()) body_ += "<p>" + text_html + "</p>\n";
        return *this;
    }
    Document& paragraph(const std::string& text_html)
    {
        body_ += "<p>" + text_html + "</p>\n";
        return *this;
    }
    Document& figure(const std::string& src, const std::string& caption_html, const std::string& alt = "",
                     int width = 0, bool pixels = false, const std::string& id = "")
    {
        body_ += page::figure(src, caption_html, alt, width, pixels, id);
        return *this;
    }
    Document& table(const Table& t)
    {
        body_ += t.html();
        return *this;
    }
    Document& text_result(const std::string& file, const std::string& content)
    {
        body_ += page::text_result(file, content);
        return *this;
    }
    Document& raw(const std::string& html)
    {
        body_ += html;
        return *this;
    }

    std::string html() const { return page::html(title_, body_, summary_); }
    bool write(const std::filesystem::path& path) const { return write_text(path, html()); }

private:
    std::string title_, summary_, body_;
};

// ---------------------------------------------------------------------------------------------
// Reading pages back (the index): what html() and figure() wrote.

/// The text between `open` and `close` after `from`; empty if absent.
inline std::string between(const std::string& text, const std::string& open, const std::string& close,
                           std::size_t from = 0)
{
    const std::size_t a = text.find(open, from);
    if (a == std::string::npos) return "";
    const std::size_t b = text.find(close, a + open.size());
    return b == std::string::npos ? "" : text.substr(a + open.size(), b - a - open.size());
}

/// A page's title and one-line summary, as escaped HTML text.
inline std::string title_of(const std::string& html) { return between(html, "<title>", "</title>"); }
inline std::string summary_of(const std::string& html)
{
    return between(html, "<meta name=\"description\" content=\"", "\">");
}

/// A figure as written on a page: its picture, its alt text and id (escaped; the id may be empty)
/// and its caption (HTML).
struct FigureRef {
    std::string src, alt, id, caption;
};

/// The figures of a page, in order.
inline std::vector<FigureRef> figures_of(const std::string& html)
{
    std::vector<FigureRef> out;
    for (std::size_t at = html.find("<figure"); at != std::string::npos; at = html.find("<figure", at + 1)) {
        const std::size_t end = html.find("</figure>", at);
        if (end == std::string::npos) break;
        const std::string f = html.substr(at, end - at);
        const std::string tag = f.substr(0, f.find('>'));
        out.push_back({between(f, "<img src=\"", "\""), between(f, " alt=\"", "\""), between(tag, " id=\"", "\""),
                       between(f, "<figcaption>", "</figcaption>")});
    }
    return out;
}

}  // namespace page
