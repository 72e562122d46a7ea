// SPDX-License-Identifier: MIT
// The examples' drawing toolbox (examples/common/png.hpp): canvas, lines, text, scale bars, and the PNG
// writer, whose files are decoded here by libpng's independent simplified API.
#include <cstdio>
#include <string>

#include "catch.hpp"
#include "png.hpp"
#include "png_read.hpp"

namespace {

/// A file in the build tree's scratch folder for this test program.
std::string scratch(const char* name) { return std::string(LAB_SCRATCH_DIR) + "/" + name; }

int count(const gfx::Canvas& c, gfx::Rgb colour)
{
    int n = 0;
    for (int y = 0; y < c.height(); ++y)
        for (int x = 0; x < c.width(); ++x) n += c.get(x, y) == colour;
    return n;
}

}  // namespace

TEST_CASE("a new canvas is filled with its background colour", "[png]")
{
    const gfx::Rgb teal{0, 128, 128};
    const gfx::Canvas c(7, 5, teal);
    CHECK(c.width() == 7);
    CHECK(c.height() == 5);
    CHECK(count(c, teal) == 7 * 5);
}

TEST_CASE("a line covers both end points and one pixel per step of its longer axis", "[png]")
{
    // An 8-connected line from (x0,y0) to (x1,y1) has max(|dx|, |dy|) + 1 pixels.
    gfx::Canvas c(16, 16);
    c.line(2, 3, 12, 3, gfx::white);  // horizontal: 11 pixels, all on row 3
    CHECK(count(c, gfx::white) == 11);
    for (int x = 2; x <= 12; ++x) CHECK(c.get(x, 3) == gfx::white);

    gfx::Canvas d(16, 16);
    d.line(3, 14, 5, 1, gfx::red);  // steep, drawn upwards: |dy| = 13 -> 14 pixels, one per row
    CHECK(count(d, gfx::red) == 14);
    CHECK(d.get(3, 14) == gfx::red);
    CHECK(d.get(5, 1) == gfx::red);
    for (int y = 1; y <= 14; ++y) {
        int in_row = 0;
        for (int x = 0; x < 16; ++x) in_row += d.get(x, y) == gfx::red;
        CHECK(in_row == 1);
    }

    gfx::Canvas e(8, 8);
    e.line(7, 7, 0, 0, gfx::white);  // the 45-degree diagonal, backwards: exactly (i, i)
    CHECK(count(e, gfx::white) == 8);
    for (int i = 0; i < 8; ++i) CHECK(e.get(i, i) == gfx::white);

    gfx::Canvas p(4, 4);
    p.line(2, 1, 2, 1, gfx::white);  // a zero-length line is its one point
    CHECK(count(p, gfx::white) == 1);
    CHECK(p.get(2, 1) == gfx::white);
}

TEST_CASE("drawing outside the canvas is clipped, not an error", "[png]")
{
    gfx::Canvas c(8, 8);
    c.set(-1, 0, gfx::white);
    c.set(0, 8, gfx::white);
    CHECK(count(c, gfx::white) == 0);
    c.line(-20, 4, 30, 4, gfx::red);  // crosses the whole canvas: row 4 is red, nothing else
    CHECK(count(c, gfx::red) == 8);
    for (int x = 0; x < 8; ++x) CHECK(c.get(x, 4) == gfx::red);
    CHECK(c.get(-5, -5) == gfx::black);  // outside reads as black
}

TEST_CASE("text draws each character's 5 x 7 glyph, six columns apart", "[png]")
{
    // '1' is the rows 00100 01100 00100 00100 00100 00100 01110: 1 + 2 + 4 + 3 = 10 pixels.
    gfx::Canvas c(20, 10);
    c.text(0, 0, "1", gfx::white);
    CHECK(count(c, gfx::white) == 10);
    CHECK(c.get(2, 0) == gfx::white);  // the top of the stem
    CHECK(c.get(0, 0) == gfx::black);
    CHECK(c.get(1, 6) == gfx::white);  // the foot, 01110
    CHECK(c.get(3, 6) == gfx::white);
    CHECK(c.get(0, 6) == gfx::black);

    gfx::Canvas two(20, 20);
    two.text(0, 0, "11", gfx::white, 2);  // each glyph pixel a 2 x 2 block: 2 * 10 * 4 pixels
    CHECK(count(two, gfx::white) == 80);
    CHECK(two.get(12 + 4, 0) == gfx::white);  // the second '1' starts 6 * 2 = 12 pixels on: its stem at 12 + 2*2
    CHECK(two.get(12 + 5, 1) == gfx::white);

    gfx::Canvas sp(10, 10);
    sp.text(0, 0, " ", gfx::white);  // a space draws nothing
    CHECK(count(sp, gfx::white) == 0);
}

TEST_CASE("a scale bar is as long as its metres at the picture's scale, labelled above", "[png]")
{
    // 2 m at 24 px per metre: 48 pixels, from x = 10 to x = 58 on rows 49 and 50, ticks 5 up.
    gfx::Canvas c(80, 60);
    gfx::scale_bar(c, 10, 50, 24.0, 2.0, gfx::white);
    for (int x = 10; x <= 58; ++x) {
        CAPTURE(x);
        CHECK(c.get(x, 50) == gfx::white);
        CHECK(c.get(x, 49) == gfx::white);
    }
    CHECK(c.get(9, 50) == gfx::black);
    CHECK(c.get(59, 50) == gfx::black);
    CHECK(c.get(10, 45) == gfx::white);  // the end ticks
    CHECK(c.get(58, 45) == gfx::white);
    CHECK(c.get(30, 45) == gfx::black);
    // The label "2 m" in doubled glyphs, its top at 50 - 22 = 28: the top row of '2' is 01110,
    // so pixels 10 + 2 .. 10 + 7 on rows 28 and 29, none at 10 .. 11.
    CHECK(c.get(12, 28) == gfx::white);
    CHECK(c.get(17, 29) == gfx::white);
    CHECK(c.get(11, 28) == gfx::black);
    CHECK(c.get(18, 28) == gfx::black);
}

TEST_CASE("a written PNG decodes to the same pixels", "[png]")
{
    gfx::Canvas c(5, 3, gfx::Rgb{10, 20, 30});
    c.set(0, 0, gfx::Rgb{255, 0, 0});
    c.set(4, 0, gfx::Rgb{0, 255, 0});
    c.set(0, 2, gfx::Rgb{0, 0, 255});
    c.set(4, 2, gfx::Rgb{1, 2, 3});
    const std::string path = scratch("png-roundtrip.png");
    std::string err;
    REQUIRE(gfx::write_png(c, path, err));
    CHECK(err.empty());

    const labtest::Image img = labtest::read_png(path);
    REQUIRE(img.error.empty());
    REQUIRE(img.width == 5);
    REQUIRE(img.height == 3);
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 5; ++x) {
            CAPTURE(x, y);
            const gfx::Rgb want = c.get(x, y);
            CHECK(img.at(x, y) == labtest::Image::Pixel{want.r, want.g, want.b});
        }
}

TEST_CASE("an image libpng refuses is reported with libpng's reason and leaves no file", "[png]")
{
    // PNG has no empty images: libpng's IHDR check rejects width 0 through its error callback.
    const gfx::Canvas empty(0, 0);
    const std::string path = scratch("png-empty.png");
    std::string err;
    CHECK_FALSE(gfx::write_png(empty, path, err));
    CHECK(err.find("libpng") != std::string::npos);
    CHECK(err.find("IHDR") != std::string::npos);
    std::FILE* f = std::fopen(path.c_str(), "rb");
    CHECK(f == nullptr);
    if (f) std::fclose(f);
}

TEST_CASE("a file that cannot be created is reported with its path", "[png]")
{
    const std::string path = scratch("no-such-folder/x.png");
    std::string err;
    CHECK_FALSE(gfx::write_png(gfx::Canvas(2, 2), path, err));
    CHECK(err.find(path) != std::string::npos);
}
