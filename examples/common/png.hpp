// SPDX-License-Identifier: MIT
/// \file png.hpp
/// The examples' drawing toolbox: an RGB canvas (pixels, lines, a few characters of text, a scale
/// bar) and a PNG writer over libpng.
///
///     gfx::Canvas c(64, 64);                 // black
///     c.line(0, 0, 63, 63, gfx::white);
///     std::string err;
///     if (!gfx::write_png(c, "check.png", err)) { std::fprintf(stderr, "%s\n", err.c_str()); return 1; }
///
/// Pixel (0, 0) is the top-left corner and y grows downwards, as in the image file. Drawing
/// outside the canvas is clipped (ignored), never an error. Link libpng (CMake: PNG::PNG).
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <png.h>  // also brings <setjmp.h>, which libpng's error handling is built on

namespace gfx {

/// A colour, 8 bits per channel.
struct Rgb {
    std::uint8_t r{0}, g{0}, b{0};

    friend bool operator==(const Rgb& p, const Rgb& q) noexcept
    {
        return p.r == q.r && p.g == q.g && p.b == q.b;
    }
    friend bool operator!=(const Rgb& p, const Rgb& q) noexcept { return !(p == q); }
};

inline constexpr Rgb black{0, 0, 0};
inline constexpr Rgb white{255, 255, 255};
inline constexpr Rgb red{255, 0, 0};

/// A width x height RGB image filled with a background colour.
class Canvas {
public:
    Canvas(int width, int height, Rgb background = black)
        : w_(width > 0 ? width : 0), h_(height > 0 ? height : 0),
          px_(std::size_t(w_) * std::size_t(h_) * 3)
    {
        for (std::size_t i = 0; i < px_.size(); i += 3) {
            px_[i] = background.r;
            px_[i + 1] = background.g;
            px_[i + 2] = background.b;
        }
    }

    int width() const noexcept { return w_; }
    int height() const noexcept { return h_; }
    bool contains(int x, int y) const noexcept { return x >= 0 && y >= 0 && x < w_ && y < h_; }

    /// Sets pixel (x, y); outside the canvas nothing happens.
    void set(int x, int y, Rgb c) noexcept
    {
        if (!contains(x, y)) return;
        std::uint8_t* p = &px_[index(x, y)];
        p[0] = c.r;
        p[1] = c.g;
        p[2] = c.b;
    }

    /// Pixel (x, y); black outside the canvas.
    Rgb get(int x, int y) const noexcept
    {
        if (!contains(x, y)) return black;
        const std::uint8_t* p = &px_[index(x, y)];
        return Rgb{p[0], p[1], p[2]};
    }

    /// A one-pixel line from (x0, y0) to (x1, y1), both ends included, by Bresenham's algorithm
    /// (integer error term, every octant): with dx = |x1-x0| and dy = -|y1-y0|, err = dx + dy;
    /// step x when 2*err >= dy, step y when 2*err <= dx. Parts outside the canvas are clipped.
    void line(int x0, int y0, int x1, int y1, Rgb c) noexcept
    {
        const int dx = std::abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
        const int dy = -std::abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
        int err = dx + dy;
        for (;;) {
            set(x0, y0, c);
            if (x0 == x1 && y0 == y1) break;
            const int e2 = 2 * err;
            if (e2 >= dy) {
                err += dy;
                x0 += sx;
            }
            if (e2 <= dx) {
                err += dx;
                y0 += sy;
            }
        }
    }

    /// `str` in a 5 x 7 pixel font, each glyph pixel drawn as a `size` x `size` block, the top-left
    /// corner of the first glyph at (x, y), 6 glyph columns per character. The font has the digits,
    /// '.', '-', ' ' and the unit letters 'm' and 'c'; any other character is drawn as a box.
    void text(int x, int y, const std::string& str, Rgb c, int size = 1) noexcept
    {
        for (const char ch : str) {
            const std::uint8_t* rows = glyph(ch);
            for (int r = 0; r < 7; ++r)
                for (int col = 0; col < 5; ++col)
                    if (rows[r] & (0x10 >> col))
                        for (int dy = 0; dy < size; ++dy)
                            for (int dx = 0; dx < size; ++dx) set(x + col * size + dx, y + r * size + dy, c);
            x += 6 * size;
        }
    }

    /// Row y as packed RGB bytes (3 per pixel), for the encoder.
    const std::uint8_t* row(int y) const noexcept { return px_.data() + index(0, y); }

private:
    /// The 5 x 7 glyph of `ch`: seven rows, the leftmost pixel in bit 4.
    static const std::uint8_t* glyph(char ch) noexcept
    {
        static const std::uint8_t digits[10][7] = {
            {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}, {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E},
            {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}, {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},
            {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}, {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E},
            {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}, {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
            {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}, {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}};
        static const std::uint8_t dot[7] = {0, 0, 0, 0, 0, 0x0C, 0x0C}, minus[7] = {0, 0, 0, 0x1F, 0, 0, 0},
                                  space[7] = {0, 0, 0, 0, 0, 0, 0}, m[7] = {0, 0, 0x1A, 0x15, 0x15, 0x11, 0x11},
                                  c[7] = {0, 0, 0x0E, 0x10, 0x10, 0x11, 0x0E},
                                  box[7] = {0x1F, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1F};
        if (ch >= '0' && ch <= '9') return digits[ch - '0'];
        switch (ch) {
        case '.': return dot;
        case '-': return minus;
        case ' ': return space;
        case 'm': return m;
        case 'c': return c;
        default: return box;
        }
    }

    std::size_t index(int x, int y) const noexcept
    {
        return (std::size_t(y) * std::size_t(w_) + std::size_t(x)) * 3;
    }

    int w_;
    int h_;
    std::vector<std::uint8_t> px_;  // RGB, row by row from the top
};

/// A scale bar for a picture of bodies: a horizontal bar `metres` long at `pixels_per_metre`, from
/// (x, y) to the right, two pixels thick (rows y - 1 and y), with end ticks 5 pixels up and its
/// length written above it ("1 m", glyphs doubled: 14 pixels high, the top at y - 22).
inline void scale_bar(Canvas& c, int x, int y, double pixels_per_metre, double metres, Rgb colour) noexcept
{
    const int len = int(metres * pixels_per_metre + 0.5);
    for (int t = 0; t < 2; ++t) c.line(x, y - t, x + len, y - t, colour);  // two pixels thick
    c.line(x, y - 5, x, y, colour);
    c.line(x + len, y - 5, x + len, y, colour);
    char label[32];
    std::snprintf(label, sizeof label, "%g m", metres);
    c.text(x, y - 22, label, colour, 2);
}

namespace detail {

/// What the libpng callbacks share with write_png.
struct PngSink {
    std::FILE* file{nullptr};
    png_structp png{nullptr};
    png_infop info{nullptr};
    char error[256]{};  // libpng's message when it gave up (fixed size: no allocation in a callback)
};

/// libpng error callback: keep the message, then jump back to the setjmp in encode(). It must not
/// return (libpng would fall back to its default handler, which prints and jumps).
inline void on_png_error(png_structp png, png_const_charp msg)
{
    auto* sink = static_cast<PngSink*>(png_get_error_ptr(png));
    std::snprintf(sink->error, sizeof sink->error, "%s", msg ? msg : "unknown error");
    png_longjmp(png, 1);
}

/// libpng warning callback: the image is still written; say what libpng noticed.
inline void on_png_warning(png_structp /*png*/, png_const_charp msg)
{
    std::fprintf(stderr, "libpng warning: %s\n", msg ? msg : "");
}

/// The libpng calls proper. After setjmp this function changes no local variable, so nothing
/// can be left indeterminate when on_png_error jumps back here (C's rule for setjmp/longjmp);
/// the frames it jumps over are libpng's own, which hold no C++ objects.
inline bool encode(const PngSink& s, const Canvas& c, png_bytepp rows)
{
    if (setjmp(png_jmpbuf(s.png))) return false;  // a libpng error: s.error says which
    png_init_io(s.png, s.file);
    png_set_IHDR(s.png, s.info, png_uint_32(c.width()), png_uint_32(c.height()), 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(s.png, s.info);
    png_write_image(s.png, rows);
    png_write_end(s.png, nullptr);
    return true;
}

}  // namespace detail

/// Writes the canvas to `path` as an 8-bit RGB PNG. On failure (the file cannot be created, or
/// libpng reports an error — e.g. an empty canvas, which PNG cannot hold) returns false with
/// `error` saying why, and removes the partly written file.
inline bool write_png(const Canvas& c, const std::string& path, std::string& error)
{
    detail::PngSink s;
    s.file = std::fopen(path.c_str(), "wb");
    if (!s.file) {
        error = path + ": " + std::strerror(errno);
        return false;
    }
    s.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &s, detail::on_png_error,
                                    detail::on_png_warning);
    if (s.png) s.info = png_create_info_struct(s.png);

    bool ok = false;
    if (!s.png || !s.info) {
        std::snprintf(s.error, sizeof s.error, "cannot create the PNG writer (out of memory)");
    } else {
        // libpng's row type is not const-qualified, but png_write_image only reads the rows.
        std::vector<png_bytep> rows(std::size_t(c.height()));
        for (int y = 0; y < c.height(); ++y) rows[std::size_t(y)] = const_cast<png_bytep>(c.row(y));
        ok = detail::encode(s, c, rows.data());
    }
    png_destroy_write_struct(&s.png, &s.info);  // accepts null pointers

    if (std::fclose(s.file) != 0 && ok) {
        ok = false;
        error = path + ": " + std::strerror(errno);
    } else if (!ok) {
        error = path + ": libpng: " + s.error;
    }
    if (!ok) std::remove(path.c_str());  // leave no half-written image behind
    return ok;
}

}  // namespace gfx
