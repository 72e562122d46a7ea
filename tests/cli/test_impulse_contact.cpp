// SPDX-License-Identifier: MIT
// impulse-contact: the CSV reader and writer, through the functions the program runs
// (impulse_contact::run and ::cli). Expected outputs are derived by hand in the comments beside
// them (or are the seed documents' traces); every error class is checked with its exact message;
// and a round trip compares the printed numbers bit for bit with impulse::resolve called directly.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "common.hpp"
#include "csv_contacts.hpp"

namespace {

struct Ran {
    int status;
    std::string out;
    std::string err;
};

/// Runs the reader over `csv`, as if read from a file called contacts.csv.
Ran run_csv(const std::string& csv, const std::string& name = "contacts.csv")
{
    std::istringstream in(csv);
    std::ostringstream out, err;
    const int status = impulse_contact::run(in, name, out, err);
    return {status, out.str(), err.str()};
}

/// Runs the whole command line with `stdin_text` as standard input.
Ran run_cli(const std::vector<std::string>& args, const std::string& stdin_text = "")
{
    std::istringstream in(stdin_text);
    std::ostringstream out, err;
    const int status = impulse_contact::cli(args, in, out, err);
    return {status, out.str(), err.str()};
}

const std::string out2d = "jn,jtx,jty,vax,vay,vbx,vby,regime\n";
const std::string out3d = "jn,jtx,jty,jtz,vax,vay,vaz,vbx,vby,vbz,regime\n";
const std::string head2d = "vax,vay,wa,vbx,vby,wb,nx,ny\n";

/// A file whose first bad line is checked: exit status 2, exactly `message` on standard error,
/// and on standard output only what came before the bad line.
void check_error(const std::string& csv, const std::string& message, const std::string& printed)
{
    const Ran r = run_csv(csv);
    CHECK(r.status == 2);
    CHECK(r.err == "impulse-contact: contacts.csv:" + message + "\n");
    CHECK(r.out == printed);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Golden runs

TEST_CASE("the seed crate trace slides from 3 to 2 under a given normal impulse of 4", "[cli][seed]")
{
    // Coulomb friction lesson: crate B (w = 0.5) on a static floor A, n = (0, 1), t = (-1, 0);
    // velocity after the normal impulse (3, 0), jn = 4, mu = 0.5. vt = -3, jt_want = 3/0.5 = 6,
    // cap = 0.5*4 = 2 < 6: sliding, jt = +2 along t, friction impulse (-2, 0) on B;
    // B: (3, 0) + 0.5*(-2, 0) = (2, 0). The floor stays at rest.
    const Ran r = run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,mu,jn\n0,0,0,3,0,0.5,0,1,0.5,4\n");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == out2d + "4,-2,0,0,0,2,0,sliding\n");
}

TEST_CASE("the seed tangent trace bounces with jn 4.5 and slides on to (1.2, 1.5)", "[cli][seed]")
{
    // Lab "Friction is an impulse too": v = (3, -3), w = 1, static surface, n = (0, 1), e = 0.5,
    // mu = 0.4. vn = -3, jn = -(1.5)(-3)/1 = 4.5, after it v = (3, 1.5); stopping the slide needs
    // 3 > cap = 0.4*4.5 = 1.8 (0.4*4.5 rounds to the double nearest 1.8): sliding, friction
    // impulse 1.8 along t = (-1, 0) = (-1.8, 0); v = (3 - 1.8, 1.5) = (1.2, 1.5) (3 - 1.8 is exact
    // in binary and equals the double nearest 1.2).
    const Ran r = run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,e,mu\n0,0,0,3,-3,1,0,1,0.5,0.4\n");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == out2d + "4.5,-1.8,0,0,0,1.2,1.5,sliding\n");
}

TEST_CASE("a 3D body sliding onto a static floor keeps sliding, slower", "[cli][3d]")
{
    // B (w = 1) at (3, 4, -2) hits a static floor, n = (0, 0, 1), e = 0, mu = 0.5.
    // jn = -(1)(-2)/1 = 2, after it vB = (3, 4, 0); the impulse that stops the slide is
    // |(3, 4, 0)|/1 = 5 > cap = 0.5*2 = 1: sliding, friction 1 against dir = (0.6, 0.8, 0):
    // J = -1*(0.6, 0.8, 0) = (-0.6, -0.8, -0); vB = (3 - 0.6, 4 - 0.8, 0) = (2.4, 3.2, 0)
    // (3 - 0.6 rounds to the double nearest 2.4; 4 - 0.8 lies halfway and rounds to the even
    // neighbour, the double nearest 3.2).
    const Ran r = run_csv("vax,vay,vaz,wa,vbx,vby,vbz,wb,nx,ny,nz,e,mu\n0,0,0,0,3,4,-2,1,0,0,1,0,0.5\n");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == out3d + "2,-0.6,-0.8,-0,0,0,0,2.4,3.2,0,sliding\n");
}

TEST_CASE("a normal of any length resolves like the unit normal", "[cli][normal]")
{
    // The tangent trace with n = (0, 2) and the 3D floor with n = (0, 0, 5): (0, 2)/2 = (0, 1) and
    // (0, 0, 5)/5 = (0, 0, 1) exactly, so the outputs are the hand-derived ones above.
    CHECK(run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,e,mu\n0,0,0,3,-3,1,0,2,0.5,0.4\n").out ==
          out2d + "4.5,-1.8,0,0,0,1.2,1.5,sliding\n");
    CHECK(run_csv("vax,vay,vaz,wa,vbx,vby,vbz,wb,nx,ny,nz,e,mu\n0,0,0,0,3,4,-2,1,0,0,5,0,0.5\n").out ==
          out3d + "2,-0.6,-0.8,-0,0,0,0,2.4,3.2,0,sliding\n");
    // A tiny normal (below what squaring can hold) still points along +y.
    CHECK(run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,e,mu\n0,0,0,3,-3,1,0,1e-300,0.5,0.4\n").out ==
          out2d + "4.5,-1.8,0,0,0,1.2,1.5,sliding\n");
}

TEST_CASE("per-body coefficients are mixed by their geometric mean", "[cli][friction]")
{
    // The crate trace with mua = 0.25, mub = 1: sqrt(0.25*1) = 0.5, the trace's mu: same result.
    CHECK(run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,mua,mub,jn\n0,0,0,3,0,0.5,0,1,0.25,1,4\n").out ==
          out2d + "4,-2,0,0,0,2,0,sliding\n");
    // A frictionless surface stays frictionless: sqrt(0*1) = 0 -> no friction impulse (+0 along
    // t = (-1, 0) is (-0, 0)), the crate keeps (3, 0).
    CHECK(run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,mua,mub,jn\n0,0,0,3,0,0.5,0,1,0,1,4\n").out ==
          out2d + "4,-0,0,0,0,3,0,sliding\n");
}

TEST_CASE("static and kinetic coefficients: stick up to mus*jn, slide with muk*jn beyond", "[cli][friction]")
{
    // The crate trace (jt_want = 6, jn = 4). mus = 2: 6 <= 8 sticks, J = 6 along t = (-6, 0),
    // crate 3 + 0.5*(-6) = 0.
    CHECK(run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,mus,muk,jn\n0,0,0,3,0,0.5,0,1,2,1,4\n").out ==
          out2d + "4,-6,0,0,0,0,0,sticking\n");
    // mus = 1: 6 > 4 slides with muk*jn = 0.25*4 = 1, J = (-1, 0), crate 3 - 0.5 = 2.5.
    CHECK(run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,mus,muk,jn\n0,0,0,3,0,0.5,0,1,1,0.25,4\n").out ==
          out2d + "4,-1,0,0,0,2.5,0,sliding\n");
}

TEST_CASE("without e and mu a contact is inelastic and frictionless", "[cli][defaults]")
{
    // B (w = 1) at (1, -2) onto a static floor, n = (0, 1): e = 0 gives jn = 2 and vB = (1, 0);
    // mu = 0 caps friction at 0: sliding with the impulse +0 along t = (-1, 0), i.e. (-0, 0).
    CHECK(run_csv(head2d + "0,0,0,1,-2,1,0,1\n").out == out2d + "2,-0,0,0,0,1,0,sliding\n");
}

TEST_CASE("a separating contact is left untouched", "[cli][regime]")
{
    // B moves away from A along n = (0, 1): vn = 1 > 0, no impulse, velocities unchanged.
    CHECK(run_csv(head2d + "0,0,1,1,1,1,0,1\n").out == out2d + "0,0,0,0,0,1,1,separating\n");
}

TEST_CASE("two immovable bodies are reported immovable and left alone", "[cli][regime]")
{
    // wa = wb = 0: nothing can move them; a given jn is echoed, no friction impulse.
    CHECK(run_csv(head2d + "1,0,0,-1,0,0,1,0\n").out == out2d + "0,0,0,1,0,-1,0,immovable\n");
    CHECK(run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,mu,jn\n0,0,0,3,0,0,0,1,0.5,4\n").out ==
          out2d + "4,0,0,0,0,3,0,immovable\n");
}

TEST_CASE("columns may come in any order, spaced, after comments, with CRLF line ends", "[cli][header]")
{
    // The crate trace again, its columns shuffled: the output keeps its fixed order.
    const std::string csv = "# a crate\r\n\r\n   \n# another comment\n"
                            " jn , mu,ny ,nx,wb,vby,vbx,wa,vay,vax\r\n"
                            "# between rows\n"
                            "4, 0.5 ,1,0,0.5,0,3,0,0,0\r\n"
                            "\n";
    const Ran r = run_csv(csv);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == out2d + "4,-2,0,0,0,2,0,sliding\n");
}

TEST_CASE("a leading '+' is accepted on numbers", "[cli][numbers]")
{
    CHECK(run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,mu,jn\n+0,0,0,+3,0,+0.5,0,+1,0.5,+4\n").out ==
          out2d + "4,-2,0,0,0,2,0,sliding\n");
}

TEST_CASE("a file with only a header prints only the output header", "[cli][header]")
{
    const Ran r = run_csv(head2d);
    CHECK(r.status == 0);
    CHECK(r.out == out2d);
    CHECK(r.err.empty());
}

// ---------------------------------------------------------------------------------------------
// Errors: one message naming file, line and column; exit status 2; nothing from the bad line on

TEST_CASE("an unknown column is an error", "[cli][error]")
{
    check_error("vax,vay,wa,vbx,vby,wb,nx,ny,foo\n",
                "1: column 'foo': unknown column (--help lists the columns)", "");
    // Names are case-sensitive and only trimmed of surrounding blanks.
    check_error("vax,vay,wa,vbx,vby,wb,nx,NY\n", "1: column 'NY': unknown column (--help lists the columns)",
                "");
}

TEST_CASE("an empty column name in the header is an error", "[cli][error]")
{
    check_error("vax,vay,wa,vbx,vby,wb,nx,ny,\n", "1: header field 9 is empty (a stray comma?)", "");
}

TEST_CASE("a duplicate column is an error", "[cli][error]")
{
    check_error("vax,vay,wa,vbx,vby,wa,nx,ny\n", "1: column 'wa': duplicate column (also field 3)", "");
}

TEST_CASE("a missing required column is an error", "[cli][error]")
{
    check_error("vax,vay,wa,vbx,vby,wb,nx\n", "1: column 'ny': required column missing from the header", "");
    check_error("# wb forgotten\nvax,vay,wa,vbx,vby,nx,ny\n",
                "2: column 'wb': required column missing from the header", "");
}

TEST_CASE("a partial 3D triple is an error", "[cli][error]")
{
    check_error("vax,vay,vaz,wa,vbx,vby,wb,nx,ny\n",
                "1: column 'vaz': the 3D columns 'vaz,vbz,nz' come all or none; missing 'vbz', 'nz'", "");
    check_error("vax,vay,wa,vbx,vby,vbz,wb,nx,ny,nz\n",
                "1: column 'vbz': the 3D columns 'vaz,vbz,nz' come all or none; missing 'vaz'", "");
}

TEST_CASE("friction given more than one way is an error", "[cli][error]")
{
    check_error(head2d.substr(0, head2d.size() - 1) + ",mu,mua,mub\n",
                "1: column 'mua': friction given more than one way ('mu' and 'mua,mub'); "
                "give one of mu | mua,mub | mus,muk",
                "");
    // Reported at the group that comes second in the header.
    check_error("mus,muk," + head2d.substr(0, head2d.size() - 1) + ",mu\n",
                "1: column 'mu': friction given more than one way ('mus,muk' and 'mu'); "
                "give one of mu | mua,mub | mus,muk",
                "");
}

TEST_CASE("a per-body coefficient without the other body's is an error", "[cli][error]")
{
    check_error(head2d.substr(0, head2d.size() - 1) + ",mua\n",
                "1: column 'mua': the per-body friction columns 'mua,mub' come all or none; missing 'mub'",
                "");
    check_error(head2d.substr(0, head2d.size() - 1) + ",muk\n",
                "1: column 'muk': the static/kinetic friction columns 'mus,muk' come all or none; "
                "missing 'mus'",
                "");
}

TEST_CASE("restitution together with a given normal impulse is an error", "[cli][error]")
{
    // With jn given, e could not change anything: refusing beats silently ignoring it.
    check_error(head2d.substr(0, head2d.size() - 1) + ",e,jn\n",
                "1: column 'jn': the normal impulse given more than one way ('e' and 'jn'); "
                "'e' computes it, 'jn' gives it: use one",
                "");
}

TEST_CASE("a field that is not a number is an error", "[cli][error]")
{
    // The message format of the documentation, on line 7 (comments and blank lines count).
    const std::string csv = "# contacts\n" + head2d + "0,0,0,0,-2,1,0,1\n\n# next\n0,0,0,0,-2,1,0,1\n"
                            "0,0,0,0,-2,1,abc,1\n0,0,0,0,-2,1,0,1\n";
    const std::string two_rows = out2d + "2,0,0,0,0,0,0,sticking\n" + "2,0,0,0,0,0,0,sticking\n";
    check_error(csv, "7: column 'nx': expected a number, got \"abc\"", two_rows);
    check_error(head2d + "0,0,0,0,-2,1,0,1.5x\n", "2: column 'ny': expected a number, got \"1.5x\"", out2d);
    check_error(head2d + "0,0,0,0,-2,1,0, \n", "2: column 'ny': expected a number, got \"\"", out2d);
    check_error(head2d + "0,0,0,0,-2,1,0,+-1\n", "2: column 'ny': expected a number, got \"+-1\"", out2d);
    check_error(head2d + "0,0,0,0,-2,1,0,0x10\n", "2: column 'ny': expected a number, got \"0x10\"", out2d);
    check_error(head2d + "0,0,0,0,-2,1,0,1 2\n", "2: column 'ny': expected a number, got \"1 2\"", out2d);
    // Quotes and control bytes are shown escaped.
    check_error(head2d + "\"1\",0,0,0,-2,1,0,1\n", "2: column 'vax': expected a number, got \"\\\"1\\\"\"",
                out2d);
    check_error(head2d + std::string("0,0,0,0,-2,1,0,\x01", 16) + "\n",
                "2: column 'ny': expected a number, got \"\\x01\"", out2d);
}

TEST_CASE("NaN and infinities are errors", "[cli][error]")
{
    check_error(head2d + "0,0,0,nan,-2,1,0,1\n", "2: column 'vbx': expected a finite number, got \"nan\"",
                out2d);
    check_error(head2d + "0,0,0,0,-2,1,0,-inf\n", "2: column 'ny': expected a finite number, got \"-inf\"",
                out2d);
    check_error(head2d + "0,0,0,0,-2,1,infinity,1\n",
                "2: column 'nx': expected a finite number, got \"infinity\"", out2d);
}

TEST_CASE("a number outside double's range is an error, not a rounded one", "[cli][error]")
{
    check_error(head2d + "0,0,0,0,-2,1,1e999,1\n",
                "2: column 'nx': expected a number within the range of double, got \"1e999\"", out2d);
    // 1e-999 would silently become 0.
    check_error(head2d + "0,0,0,0,-2,1,1e-999,1\n",
                "2: column 'nx': expected a number within the range of double, got \"1e-999\"", out2d);
}

TEST_CASE("a wrong field count is an error", "[cli][error]")
{
    check_error(head2d + "0,0,0,0,-2,1,0\n", "2: expected 8 fields, got 7", out2d);
    check_error(head2d + "0,0,0,0,-2,1,0,1,\n", "2: expected 8 fields, got 9", out2d);
}

TEST_CASE("a negative inverse mass is an error", "[cli][error]")
{
    check_error(head2d + "0,0,-1,0,-2,1,0,1\n", "2: column 'wa': inverse mass must be >= 0, got \"-1\"",
                out2d);
}

TEST_CASE("restitution outside [0, 1] is an error", "[cli][error]")
{
    const std::string head = "vax,vay,wa,vbx,vby,wb,nx,ny,e\n";
    check_error(head + "0,0,0,0,-2,1,0,1,1.5\n", "2: column 'e': restitution must lie in [0, 1], got \"1.5\"",
                out2d);
    check_error(head + "0,0,0,0,-2,1,0,1,-0.1\n",
                "2: column 'e': restitution must lie in [0, 1], got \"-0.1\"", out2d);
}

TEST_CASE("a negative friction coefficient is an error", "[cli][error]")
{
    check_error("vax,vay,wa,vbx,vby,wb,nx,ny,mu\n0,0,0,0,-2,1,0,1,-0.1\n",
                "2: column 'mu': friction coefficient must be >= 0, got \"-0.1\"", out2d);
    check_error("vax,vay,wa,vbx,vby,wb,nx,ny,mus,muk\n0,0,0,0,-2,1,0,1,0.5,-1\n",
                "2: column 'muk': friction coefficient must be >= 0, got \"-1\"", out2d);
}

TEST_CASE("a negative given normal impulse is an error", "[cli][error]")
{
    check_error("vax,vay,wa,vbx,vby,wb,nx,ny,jn\n0,0,0,3,0,1,0,1,-4\n",
                "2: column 'jn': normal impulse must be >= 0, got \"-4\"", out2d);
}

TEST_CASE("a zero normal is an error", "[cli][error]")
{
    check_error(head2d + "0,0,0,0,-2,1,0,-0\n",
                "2: columns 'nx', 'ny': the normal is zero (it must point from A to B)", out2d);
    check_error("vax,vay,vaz,wa,vbx,vby,vbz,wb,nx,ny,nz\n0,0,0,0,0,0,-2,1,0,0,0\n",
                "2: columns 'nx', 'ny', 'nz': the normal is zero (it must point from A to B)", out3d);
}

TEST_CASE("numbers too large to resolve in double are errors", "[cli][error]")
{
    check_error(head2d + "0,0,0,0,-1e151,1,0,1\n",
                "2: column 'vby': velocity must lie within +-1e150 (larger ones overflow double), got "
                "\"-1e151\"",
                out2d);
    check_error(head2d + "0,0,0,0,-2,1e200,0,1\n",
                "2: column 'wb': inverse mass must be <= 1e150 (larger ones overflow double), got \"1e200\"",
                out2d);
    // |vB - vA| / (wA + wB) = 2 / 1e-200 = 2e200 > 1e150.
    check_error(head2d + "0,0,0,0,-2,1e-200,0,1\n",
                "2: the impulse |vB - vA| / (wA + wB) exceeds 1e150 (too large for double)", out2d);
    // mu = sqrt(1e300 * 1e300) overflows to infinity, and with jn = 0 the cap mu*jn has no value.
    check_error("vax,vay,wa,vbx,vby,wb,nx,ny,mua,mub,jn\n0,0,0,3,0,0.5,0,1,1e300,1e300,0\n",
                "2: the result is not a finite double (the numbers are too large)", out2d);
}

TEST_CASE("an empty file is an error", "[cli][error]")
{
    check_error("", "1: expected a header line naming the columns, got the end of the file", "");
    check_error("# only\n\n# comments\n",
                "4: expected a header line naming the columns, got the end of the file", "");
}

// ---------------------------------------------------------------------------------------------
// The command line

TEST_CASE("standard input is named <stdin> in messages, with '-' or no argument", "[cli][options]")
{
    for (const std::vector<std::string>& args : {std::vector<std::string>{}, std::vector<std::string>{"-"}}) {
        const Ran r = run_cli(args, head2d + "0,0,0,0,-2,1,0,x\n");
        CHECK(r.status == 2);
        CHECK(r.err == "impulse-contact: <stdin>:2: column 'ny': expected a number, got \"x\"\n");
    }
}

TEST_CASE("the help option shows the columns and the worked crate example", "[cli][options]")
{
    const Ran r = run_cli({"--help"});
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out.rfind("usage: impulse-contact [FILE | -]\n", 0) == 0);
    for (const char* name : {"vax,vay", "wa ", "vbx,vby", "wb ", "nx,ny", "vaz,vbz,nz", " e ", " mu ",
                             "mua,mub", "mus,muk", " jn "})
        CHECK(r.out.find(name) != std::string::npos);
    // The crate trace and the output derived by hand for it above.
    const std::string input = "    vax,vay,wa,vbx,vby,wb,nx,ny,mu,jn\n    0,0,0,3,0,0.5,0,1,0.5,4\n";
    const std::string output = "    jn,jtx,jty,vax,vay,vbx,vby,regime\n    4,-2,0,0,0,2,0,sliding\n";
    CHECK(r.out.find(input) != std::string::npos);
    CHECK(r.out.find(output) != std::string::npos);
    CHECK(run_cli({"-h"}).out == r.out);
}

TEST_CASE("the version option prints the library version", "[cli][options]")
{
    const Ran r = run_cli({"--version"});
    CHECK(r.status == 0);
    CHECK(r.out == "impulse-contact " + std::to_string(IMPULSE_VERSION_MAJOR) + "." +
                       std::to_string(IMPULSE_VERSION_MINOR) + "." +
                       std::to_string(IMPULSE_VERSION_PATCH) + "\n");
}

TEST_CASE("an unknown option or a second file prints the usage, exit 2", "[cli][options]")
{
    const std::string usage = "usage: impulse-contact [FILE | -]\n"
                              "       impulse-contact -h | --help | --version\n";
    Ran r = run_cli({"-x"});
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "impulse-contact: unknown option '-x'\n" + usage);
    r = run_cli({"a.csv", "b.csv"});
    CHECK(r.status == 2);
    CHECK(r.err == "impulse-contact: one input file at most, got 'a.csv' and 'b.csv'\n" + usage);
}

TEST_CASE("an unreadable file is reported, exit 2", "[cli][options]")
{
    Ran r = run_cli({"/nonexistent/contacts.csv"});
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "impulse-contact: /nonexistent/contacts.csv: cannot open: No such file or directory\n");
    // A directory opens but cannot be read.
    r = run_cli({"--", "/"});
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "impulse-contact: /: cannot read: Is a directory\n");
}

// ---------------------------------------------------------------------------------------------
// Round trip: printed numbers read back are exactly impulse's

namespace {

std::string number(double x)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, r.ptr);
}

bool same_bits(double a, double b)
{
    std::uint64_t x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    return x == y;
}

std::vector<std::string> fields(const std::string& line)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = line.find(',', start);
        out.push_back(line.substr(start, comma - start));
        if (comma == std::string::npos) return out;
        start = comma + 1;
    }
}

double parse(const std::string& s)
{
    double x = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), x);
    REQUIRE(r.ec == std::errc());
    REQUIRE(r.ptr == s.data() + s.size());
    return x;
}

enum class Friction { none, pair, per_body, static_kinetic };

/// One random file: `rows` contacts in D dimensions with one way of giving friction, with or
/// without a given jn, columns shuffled. Checks every output number against impulse directly.
template <int D>
void round_trip(unsigned seed, Friction mode, bool given_jn, int rows)
{
    using V = impulse::Vec<double, D>;
    test::Random<double, D> rnd(seed);
    std::vector<std::string> names = {"vax", "vay", "wa", "vbx", "vby", "wb", "nx", "ny"};
    if (D == 3) names.insert(names.end(), {"vaz", "vbz", "nz"});
    if (given_jn)
        names.push_back("jn");
    else
        names.push_back("e");
    if (mode == Friction::pair) names.push_back("mu");
    if (mode == Friction::per_body) names.insert(names.end(), {"mua", "mub"});
    if (mode == Friction::static_kinetic) names.insert(names.end(), {"mus", "muk"});
    std::shuffle(names.begin(), names.end(), rnd.gen);

    struct Contact {
        V va, vb, n;
        double wa, wb, e, mu1, mu2, jn;
    };
    // Velocities over many magnitudes (and exact zeros), normals of any length, some immovable.
    auto scale = [&] { return rnd.chance(0.2) ? std::pow(10.0, rnd.uniform(-30, 30)) : 10.0; };
    std::vector<Contact> contacts;
    std::string csv;
    for (std::size_t i = 0; i < names.size(); ++i) csv += (i ? "," : "") + names[i];
    csv += '\n';
    for (int i = 0; i < rows; ++i) {
        Contact c;
        c.va = rnd.chance(0.3) ? V(V::Zero()) : V(rnd.vec(-1, 1) * scale());
        c.vb = rnd.vec(-1, 1) * scale();
        c.n = rnd.chance(0.2) ? V(V::Unit(rnd.chance(0.5) ? 0 : D - 1) * 3.0) : V(rnd.vec(-1, 1) * scale());
        if (c.n == V::Zero()) c.n = V::UnitX();
        c.wa = rnd.inverse_mass(true);
        c.wb = rnd.inverse_mass(true);
        c.e = rnd.chance(0.2) ? (rnd.chance(0.5) ? 0.0 : 1.0) : rnd.uniform(0, 1);
        c.mu1 = rnd.uniform(0, 1.5);
        c.mu2 = rnd.uniform(0, 1.5);
        c.jn = rnd.chance(0.1) ? 0.0 : rnd.uniform(0, 10) * scale();
        contacts.push_back(c);
        for (std::size_t k = 0; k < names.size(); ++k) {
            const std::string& f = names[k];
            double x = 0;
            if (f == "wa") x = c.wa;
            else if (f == "wb") x = c.wb;
            else if (f == "e") x = c.e;
            else if (f == "mu" || f == "mua" || f == "mus") x = c.mu1;
            else if (f == "mub" || f == "muk") x = c.mu2;
            else if (f == "jn") x = c.jn;
            else {
                const V& v = f[1] == 'a' ? c.va : f[1] == 'b' ? c.vb : c.n;
                x = v[f.back() - 'x'];
            }
            csv += (k ? "," : "") + number(x);
        }
        csv += '\n';
    }

    const Ran r = run_csv(csv);
    REQUIRE(r.status == 0);
    REQUIRE(r.err.empty());
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line);
    CHECK(line + "\n" == (D == 3 ? out3d : out2d));
    for (const Contact& c : contacts) {
        REQUIRE(std::getline(lines, line));
        CAPTURE(line);
        const std::vector<std::string> got = fields(line);
        REQUIRE(got.size() == std::size_t(3 * D + 2));

        // The contact as impulse resolves it directly. The normal is made unit length the way
        // --help documents: divided by its largest component, then by its length.
        V va = c.va, vb = c.vb;
        V n = c.n / c.n.cwiseAbs().maxCoeff();
        n /= n.norm();
        impulse::Friction<double> f;
        if (mode == Friction::pair) f = c.mu1;
        if (mode == Friction::per_body) f = impulse::combine(c.mu1, c.mu2, impulse::Combine::geometric_mean);
        if (mode == Friction::static_kinetic) f = impulse::Friction<double>(c.mu1, c.mu2);
        double jn = 0;
        V J = V::Zero();
        impulse::Regime regime;
        if (given_jn) {
            const auto fr = impulse::friction_impulse(va, c.wa, vb, c.wb, n, c.jn, f);
            impulse::apply_impulse(va, c.wa, vb, c.wb, fr.J);
            jn = c.jn;
            J = fr.J;
            regime = fr.regime;
        } else {
            impulse::Coefficients<double> k;
            k.restitution = c.e;
            k.friction = f;
            const auto res = impulse::resolve(va, c.wa, vb, c.wb, n, k);
            jn = res.jn;
            J = res.Jt;
            regime = res.regime;
        }

        std::vector<double> want = {jn};
        for (int i = 0; i < D; ++i) want.push_back(J[i]);
        for (int i = 0; i < D; ++i) want.push_back(va[i]);
        for (int i = 0; i < D; ++i) want.push_back(vb[i]);
        bool exact = true;
        for (std::size_t i = 0; i < want.size(); ++i) exact = exact && same_bits(parse(got[i]), want[i]);
        CHECK(exact);
        CHECK(got.back() == impulse::to_string(regime));
    }
    CHECK_FALSE(std::getline(lines, line));
}

}  // namespace

TEST_CASE("output read back is bit for bit what impulse computes for the same contact", "[cli][property]")
{
    // 2 dimensions x 4 ways of giving friction x (computed or given jn) x 250 rows = 4000 contacts.
    unsigned seed = 1;
    for (const Friction mode :
         {Friction::none, Friction::pair, Friction::per_body, Friction::static_kinetic}) {
        for (const bool given_jn : {false, true}) {
            CAPTURE(int(mode), given_jn);
            round_trip<2>(seed++, mode, given_jn, 250);
            round_trip<3>(seed++, mode, given_jn, 250);
        }
    }
}
