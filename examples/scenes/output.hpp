// SPDX-License-Identifier: MIT
// The scenes' output: files in the output folder and the page that shows them, scenes.html (the
// lab's index.html links it by its title and shows its pictures as thumbnails). Every scene
// program rewrites the page after writing its own files, listing whatever scene files are in the
// folder, so the page is complete whichever programs ran and in whatever order.
//
// A new scene adds itself by (1) listing its files in `items` below, in page order: a picture
// (.png) becomes a figure with the item's note as its caption (say what it shows and what to look
// for), a table (.tsv, written by write_table: a header row, then one row per number, e.g.
// quantity / value / bound) becomes a table of numbers, a text file (.txt) is shown as it is;
// (2) writing those files with write_png, write_table and write_text; (3) calling write_page(dir).
#pragma once

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "page.hpp"
#include "png.hpp"
#include "scenes/scenes.hpp"

namespace scenes::output {

namespace fs = std::filesystem;

/// One file a scene writes, and what to look for in it.
struct Item {
    const char* file;
    const char* title;
    const char* note;
};

/// Every scene file, in page order.
inline const Item items[] = {
    {"cradle.png", "Newton's cradle",
     "Five equal balls, e = 1, no gravity; time runs downwards, one row every 0.1 s (red: moving, grey: at "
     "rest). Ball 1 comes in from the left at 1 m/s; the balls hang 1 mm apart, so the solver meets one "
     "two-body collision per step and each swaps the velocities: the last ball leaves at 1 m/s, the rest "
     "stay at rest."},
    {"cradle-touching.png", "Newton's cradle, balls touching",
     "The same cradle with the balls touching (gap 0): all contacts are solved together, and only the "
     "first, approaching at the step's start, bounces; the resting ones are inelastic. Momentum is "
     "conserved, but it is not a cradle: several balls move on. Why the scene uses gaps."},
    {"cradle.tsv", "Newton's cradle: numbers", ""},
    {"cradle.txt", "Newton's cradle: the runs", "Velocities, momentum and kinetic energy, before and after."},
    {"ballpit.png", "Ball pit", "2000 circles (radius 0.2-0.3 m) poured into a 32 m box and left to settle "
     "(e = 0.2, mu = 0.4): 2.5 s, 5 s, 7.5 s and settled (the bar at the top left is 5 m). Colour: the order they "
     "were poured in."},
    {"ballpit.tsv", "Ball pit: numbers", ""},
    {"ballpit.txt", "Ball pit: the run", "Escapes, overlap after settling, kinetic energy at rest, energy drift."},
    {"pile3d.png", "3D pile of spheres", "1000 spheres poured into a 6 m x 6 m box, settled: from the side "
     "(left) and from above (right), nearer spheres lighter; the bar at the top left is 1 m."},
    {"pile3d.tsv", "3D pile: numbers", ""},
    {"pile3d.txt", "3D pile: the run", "Escapes, overlap after settling, kinetic energy at rest, energy drift."},
    {"pyramid.png", "Pyramid", "210 circles (r = 0.5 m) in 20 rows between two walls (the bar at the top left is "
     "2 m). Left: the start. Middle: after 10 s (the outlines are the start): it stands, sagging by its contact "
     "springs' compression. Right: the same 10 s without warm starting: the weight never reaches the bottom rows "
     "within a step, and it collapses."},
    {"pyramid.tsv", "Pyramid: numbers", ""},
    {"pyramid.txt", "Pyramid: the runs", "How far each circle moved in 10 s, with and without warm starting."},
    // The scene suite of the field (suite.hpp): Solver2D's setups at the solver's default settings, 60 Hz.
    {"stacks.png", "Vertical stacks and a box pyramid",
     "Left to right: 10 and 20 unit boxes placed touching (friction 0.3, every other box 1 cm to the side), and the "
     "brick pyramid of base 20 (210 boxes), after 10 s; pale outlines: where they started; red: moving faster than "
     "1 cm/s. The 20-box column leans over: on soft contacts whose normals turn with the faces, it buckles under its "
     "own weight beyond about 14 boxes."},
    {"boxpyramid.png", "Box pyramid of base 100",
     "5050 boxes in the brick pattern of Box2D's benchmark after 10 s (pale: the start; red: faster than 1 cm/s)."},
    {"stacks.tsv", "Stacks and pyramids: numbers", ""},
    {"stacks.txt", "Stacks and pyramids: the runs", "Each number against its criterion."},
    {"massratio.png", "High mass ratio",
     "Top: placed resting; bottom: dropped, as Solver2D starts them (after 10 s; pale: the start; red: faster than "
     "1 cm/s). Left: three pyramids whose top boxes are 100, 200 and 300 times denser; middle and right: a box of 400 "
     "times the mass on two small boxes, on thin ground (a segment) and on thick ground (a box)."},
    {"massratio.tsv", "High mass ratio: numbers", ""},
    {"massratio.txt", "High mass ratio: the runs", "Each number against its criterion; the dropped scenes are reported."},
    {"recovery.png", "Overlap recovery and confined circles",
     "Left: a pyramid of boxes started 25% overlapping (pale), after 5 s. Right: 625 circles started overlapping in a "
     "box too small for them, no gravity (pale: the start), after 10 s; red: faster than 1 cm/s."},
    {"recovery.tsv", "Overlap recovery and confined circles: numbers", ""},
    {"recovery.txt", "Overlap recovery and confined circles: the runs", "Each number against its criterion."},
    {"cardhouse.png", "Card house",
     "Cards 0.4 m tall and 2 mm thick, friction 0.7, after 10 s at 4 substeps (left, the default) and at 8 (right); "
     "pale: the start."},
    {"cardhouse.tsv", "Card house: numbers", ""},
    {"cardhouse.txt", "Card house: the runs", "How far the top cards moved, by substep count."},
    {"ramp.png", "Friction ramp",
     "Boxes of friction 0 (top) to 0.8 (bottom) dropped onto 30-degree ramps, after 3 s (pale: the start). Those with "
     "mu > tan 30 = 0.577 must stop, the others slide at g (sin 30 - mu cos 30)."},
    {"bounce.png", "Restitution",
     "Balls of e = 0, 0.25, 0.5, 0.75, 1 dropped from 4 m onto a floor of e = 0: the path of each ball's lowest point "
     "over 2.5 s; grey ticks: the heights e^2 4 m they should reach."},
    {"rolling.png", "Rolling resistance and conveyor",
     "Top three: balls rolling at 2 m/s with rolling resistance 0.025, 0.05 and 0.1 m where they stopped (pale: the "
     "start; red ticks: where the resistance says they stop). Bottom: a box on a belt whose surface moves at 2 m/s, "
     "after 2 s."},
    {"surfaces.tsv", "Friction, restitution, rolling, conveyor: numbers", ""},
    {"surfaces.txt", "Friction, restitution, rolling, conveyor: the runs", "Each number against its criterion."},
    // The 3D scenes (scenes3d.hpp).
    {"stack3d.png", "3D stack of cubes", "10 unit cubes on the floor: at the start (left) and after 10 s (right); the "
     "top stays over its column and level."},
    {"pyramid3d.png", "3D pyramids of cubes", "Unit cubes in square layers, each on four below: 10 x 10 base (385 "
     "cubes) and 20 x 20 base (2870 cubes) after 10 s; colour: how far each cube moved, grey 0 to red 1 cm."},
    {"pyramid3d.tsv", "3D pyramids: numbers", ""},
    {"pyramid3d.txt", "3D pyramids: the runs", "Fastest cube at the end, largest move, the top's sag."},
    {"massratio3d.png", "3D mass ratio", "Left: a cube 100 times denser (100 kg) on four 1 kg cubes after 10 s: it "
     "stays on them. Right: a 2 m cube 100 times denser (800 kg) on four 0.5 m cubes (0.125 kg, 6400 to 1): the "
     "soft contacts, springs as stiff as the light cubes' effective mass allows, give way and it reaches the floor."},
    {"dominoes.png", "Dominoes", "30 dominoes (0.1 x 1 x 0.5 m, friction 0.6), the first pushed: at the start, "
     "after 2.5 s, after 20 s. Colour: the order along the row."},
    {"ramp3d.png", "Capsule on a ramp", "A capsule (r = 0.25 m, 1 m long, seen end on) rolls down an 11.5° slope "
     "from 1 m up and along the floor, every 0.5 s (colour: time); rolling resistance of 5 mm stops it. The bar is "
     "5 m."},
    {"thandle.png", "T-handle", "A T-handle spun at 6 rad/s about its intermediate axis (the crossbar), nudged by "
     "0.01 rad/s: once per turn (every 1.05 s, so the spin stands still), for 12 s. The shaft swings from below "
     "the crossbar to above it and back every 4 s, as Euler's equations say; without the gyroscopic term it would "
     "stay below."},
    {"boxes3d.tsv", "3D scenes: numbers", ""},
    {"boxes3d.txt", "3D scenes: the runs", "Each scene's measured numbers against the criteria the tests check."},
};

/// Writes a text file into dir; false (and a message on stderr) if it cannot.
inline bool write_text(const fs::path& dir, const std::string& name, const std::string& content)
{
    if (!::page::write_text(dir / name, content)) {
        std::fprintf(stderr, "%s: cannot write\n", (dir / name).string().c_str());
        return false;
    }
    std::printf("wrote %s\n", (dir / name).string().c_str());
    return true;
}

/// Writes a canvas as a PNG into dir; false (and a message on stderr) if it cannot.
inline bool write_png(const fs::path& dir, const std::string& name, const gfx::Canvas& c)
{
    std::string err;
    if (!gfx::write_png(c, (dir / name).string(), err)) {
        std::fprintf(stderr, "%s\n", err.c_str());
        return false;
    }
    std::printf("wrote %s\n", (dir / name).string().c_str());
    return true;
}

/// Writes a table of numbers as tab-separated text (the first row is the header); false (and a
/// message on stderr) if it cannot.
inline bool write_table(const fs::path& dir, const std::string& name, const std::vector<std::vector<std::string>>& rows)
{
    std::string text;
    for (const auto& row : rows) {
        for (std::size_t i = 0; i < row.size(); ++i) text += (i ? "\t" : "") + row[i];
        text += "\n";
    }
    return write_text(dir, name, text);
}

using ::page::escape;

/// Rewrites dir/scenes.html from the scene files present in dir.
inline bool write_page(const fs::path& dir)
{
    ::page::Document doc("Scenes: many contacts at once",
                         "Many contacts at once, solved by <code>impulse::Solver</code> (the soft step: substeps, soft "
                         "contacts, relaxing, warm starting). Contacts come from the <code>impulse::collide_</code> "
                         "functions (spheres, polygons, boxes, capsules, planes) over a uniform grid.",
                         "Many bodies through the solver: look for momentum kept, piles that settle without sinking, "
                         "and what warm starting holds up.");
    for (const Item& it : items) {
        const fs::path p = dir / it.file;
        if (!fs::exists(p)) continue;
        const std::string f = it.file, ext = f.size() > 4 ? f.substr(f.size() - 4) : "";
        if (ext == ".png") {
            doc.section(escape(it.title)).figure(f, escape(it.note), it.title, 0, false, f.substr(0, f.size() - 4));
        } else if (ext == ".tsv") {
            doc.table(::page::Table::from_tsv(::page::read_text(p), escape(it.title)));
        } else {
            doc.raw("<h3>" + escape(it.title) + "</h3>\n<p>" + escape(it.note) + "</p>\n<pre>" +
                    escape(::page::read_text(p)) + "</pre>\n");
        }
    }
    return write_text(dir, "scenes.html", doc.html());
}

/// The output folder: the first argument, or out/; created if missing.
/// Finishes a pit scene (the 2D ball pit, the 3D pile): prints and writes `<stem>.txt` (the scene's
/// `headline`, then what `run_pit` measured against the bounds the tests check) and the same
/// numbers as a table, `<stem>.tsv`; writes `<stem>.png`, and rewrites the page. Exit status: 0, or 1
/// if a file could not be written.
template <class S, int D>
int finish_pit(const fs::path& dir, const std::string& stem, const gfx::Canvas& pic, const std::string& headline,
               const PitSpec<S>& p, int settle, const impulse::SolverSettings<S, D>& settings, const PitStats<S>& st)
{
    char buf[1536];
    std::snprintf(buf, sizeof buf,
                  "poured in layers from just above the pile, then %d steps (%.0f s) to settle; dt = 1/60 s, %d substeps.\n\n"
                  "all numbers finite:              %s\n"
                  "balls outside the box:           %zu (at most, any step)\n"
                  "overlap after settling:          max %.4f m, mean %.4f m (bound: %.4f m = 20%% of the smallest radius)\n"
                  "rms speed at rest (last 1 s):    %.6f m/s (bound: 0.0001 m/s)\n"
                  "fastest ball at rest (last 1 s): %.6f m/s (bound: 0.001 m/s)\n"
                  "energy rise (beyond inflow):     %.1f J (bound: M g h_c p/(2 rmin) = %.1f J)\n",
                  settle, settle / 60.0, settings.substeps, st.finite ? "yes" : "NO", st.escaped,
                  double(st.settled.max), double(st.settled.mean), 0.2 * double(p.rmin), double(st.rms),
                  double(st.fastest), double(st.rise), double(st.rise_bound));
    const std::string text = headline + buf;
    std::fputs(text.c_str(), stdout);
    const std::vector<std::vector<std::string>> table = {
        {"quantity", "value", "bound"},
        {"all numbers finite", st.finite ? "yes" : "NO", "yes"},
        {"balls outside the box (at most, any step)", std::to_string(st.escaped), "0"},
        {"overlap after settling: max, mean", ::page::formatted("%.4f m", double(st.settled.max)) + ", " +
                                                  ::page::formatted("%.4f m", double(st.settled.mean)),
         ::page::formatted("%.4f m (20%% of the smallest radius)", 0.2 * double(p.rmin))},
        {"rms speed at rest (last 1 s)", ::page::formatted("%.6f m/s", double(st.rms)), "0.0001 m/s"},
        {"fastest ball at rest (last 1 s)", ::page::formatted("%.6f m/s", double(st.fastest)), "0.001 m/s"},
        {"energy rise beyond the inflow", ::page::formatted("%.1f J", double(st.rise)), ::page::formatted("%.1f J", double(st.rise_bound))}};
    bool ok = write_png(dir, stem + ".png", pic);
    ok = write_text(dir, stem + ".txt", text) && ok;
    ok = write_table(dir, stem + ".tsv", table) && ok;
    ok = write_page(dir) && ok;
    return ok ? 0 : 1;
}

inline fs::path output_dir(int argc, char** argv) { return ::page::output_folder(argc, argv); }

/// A length and a speed as the scene suite's tables print them.
inline std::string metres(double x) { return ::page::formatted("%.4f m", x); }
inline std::string speed(double x, int digits = 5)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f m/s", digits, x);
    return buf;
}

/// One measured number of the scene suite against its criterion.
struct Check {
    std::string scene, quantity, value, bound;
    int verdict;  ///< 1 passes, 0 fails, -1 reported only (no criterion)
};

/// Finishes a program of the scene suite: prints and writes `<stem>.txt` (the headline, then one
/// line per check) and `<stem>.tsv` (scene, quantity, value, bound, verdict), and rewrites the page.
/// Exit status 0, or 1 if a file could not be written (a failed criterion is a result, not an error).
inline bool finish_suite(const fs::path& dir, const std::string& stem, const std::string& headline, const std::vector<Check>& checks)
{
    auto verdict = [](int v) { return v > 0 ? std::string("passes") : v == 0 ? std::string("FAILS") : std::string("reported"); };
    std::string text = headline + "\n";
    std::vector<std::vector<std::string>> table = {{"scene", "quantity", "value", "bound", "verdict"}};
    for (const Check& c : checks) {
        text += c.scene + ": " + c.quantity + " = " + c.value + (c.bound.empty() ? "" : " (bound " + c.bound + ")") + "  " +
                verdict(c.verdict) + "\n";
        table.push_back({c.scene, c.quantity, c.value, c.bound.empty() ? "-" : c.bound, verdict(c.verdict)});
    }
    std::fputs(text.c_str(), stdout);
    bool ok = write_text(dir, stem + ".txt", text);
    ok = write_table(dir, stem + ".tsv", table) && ok;
    return ok;
}

}  // namespace scenes::output
