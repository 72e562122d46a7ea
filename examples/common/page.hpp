// SPDX-License-Identifier: MIT
// What every example that writes files shares: its output folder, text files, and its HTML page
// (the lab's index.html links every <name>.html page in the folder by its <title>).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

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

/// A self-contained HTML page: `title` as <title> and <h1>, then `body` (HTML) as it is.
inline std::string html(const std::string& title, const std::string& body)
{
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title +
           "</title>\n</head>\n<body>\n<h1>" + title + "</h1>\n" + body + "</body>\n</html>\n";
}

}  // namespace page
