// SPDX-License-Identifier: MIT
// Decoding PNG files for the lab's checks, with libpng's simplified reading API: a decoder
// independent of the writer in examples/common/png.hpp, which uses libpng's classic API.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <png.h>

namespace labtest {

/// An 8-bit RGB image as decoded from a file.
struct Image {
    int width{0};
    int height{0};
    std::vector<std::uint8_t> rgb;  // row by row from the top, 3 bytes per pixel
    std::string error;              // empty when the file decoded

    struct Pixel {
        int r, g, b;
        bool operator==(const Pixel& o) const { return r == o.r && g == o.g && b == o.b; }
    };
    Pixel at(int x, int y) const
    {
        const std::size_t i = (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3;
        return {rgb[i], rgb[i + 1], rgb[i + 2]};
    }
};

/// Reads `path` as RGB (any PNG colour type is converted); `error` is set when that fails.
inline Image read_png(const std::string& path)
{
    Image out;
    png_image img;
    std::memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path.c_str())) {
        out.error = path + ": " + img.message;
        return out;
    }
    img.format = PNG_FORMAT_RGB;
    out.rgb.resize(PNG_IMAGE_SIZE(img));
    if (!png_image_finish_read(&img, nullptr, out.rgb.data(), 0, nullptr)) {
        out.error = path + ": " + img.message;
        png_image_free(&img);
        return out;
    }
    out.width = int(img.width);
    out.height = int(img.height);
    return out;
}

}  // namespace labtest
