// SPDX-License-Identifier: MIT
// impulse-contact: the CSV reader and writer, through the functions the program runs
// (impulse_contact::run and ::cli). Expected outputs are derived by hand in the comments beside
// them (or are the seed documents' traces); every error class is checked with its exact message;
// and round trips compare the printed numbers bit for bit with impulse::resolve (point masses and
// rigid bodies) and impulse::resolve_coupled called directly.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <sys/resource.h>

#include <Eigen/Geometry>

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
    // 1e-999 would silently become 0: refused as underflowing (like every nonzero number below
    // double's smallest normal number, see below).
    check_error(head2d + "0,0,0,0,-2,1,1e-999,1\n",
                "2: column 'nx': the number underflows double (a nonzero magnitude below "
                "2.2250738585072014e-308 keeps fewer digits, or none), got \"1e-999\"",
                out2d);
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
    CHECK(r.out.rfind("usage: impulse-contact [--coupled] [FILE | -]\n", 0) == 0);
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
    const std::string usage = "usage: impulse-contact [--coupled] [FILE | -]\n"
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
            if (k) csv += ',';
            csv += number(x);
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
            impulse::Coefficients<double> coefficients;
            coefficients.restitution = c.e;
            coefficients.friction = f;
            const auto res = impulse::resolve(va, c.wa, vb, c.wb, n, coefficients);
            jn = res.jn;
            J = res.friction_impulse;
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

// ---------------------------------------------------------------------------------------------
// Rigid bodies: golden runs

namespace {

const std::string out2r = "jn,jtx,jty,vax,vay,vbx,vby,oma,omb,regime\n";
const std::string out3r = "jn,jtx,jty,jtz,vax,vay,vaz,vbx,vby,vbz,omax,omay,omaz,ombx,omby,ombz,regime\n";
const std::string head3d = "vax,vay,vaz,wa,vbx,vby,vbz,wb,nx,ny,nz\n";

/// The header `head` (one line, with its newline) with `more` columns appended.
std::string with(const std::string& head, const std::string& more)
{
    return head.substr(0, head.size() - 1) + "," + more + "\n";
}

/// The numbers of an output line (all fields but the regime).
std::vector<double> numbers(const std::string& line)
{
    std::vector<std::string> f = fields(line);
    f.pop_back();
    std::vector<double> out;
    for (const std::string& s : f) out.push_back(parse(s));
    return out;
}

/// The second line of the output (the first contact's result).
std::string first_result(const std::string& out)
{
    const std::size_t a = out.find('\n');
    REQUIRE(a != std::string::npos);
    const std::size_t b = out.find('\n', a + 1);
    REQUIRE(b != std::string::npos);
    return out.substr(a + 1, b - a - 1);
}

}  // namespace

TEST_CASE("a ball striking a rod's end sets the rod spinning: jn 2/3, ball 1/3, rod 1/3, omega -1",
          "[cli][rigid]")
{
    // Ball A: point mass, wa = 1, at (1, 0). Rod B: m = 2, length 2 along y, at rest: wb = 0.5,
    // I = m L^2/12 = 2/3, ib = 1.5; struck at its top end rB = (0, 1); n = (1, 0); e = 1.
    //   rB x n = -1, k = 1 + 0.5 + (-1)^2 * 1.5 = 3; vn = -1; jn = 2/3 (the double nearest,
    //   printed 0.6666666666666666).
    //   Ball: 1 - fl(2/3) is exact (Sterbenz), one step above the double nearest 1/3:
    //   0.33333333333333337. Rod: 0.5 * fl(2/3) = 0.3333333333333333 (exact halving).
    //   omega = 1.5 * (rB x J) = 1.5 * (-fl(2/3)) = -(1 - 2^-54), a tie that rounds to even: -1.
    //   After it the contact point moves along n only: sticking, no friction impulse.
    const std::string want =
        out2r + "0.6666666666666666,0,0,0.33333333333333337,0,0.3333333333333333,0,0,-1,sticking\n";
    const Ran r = run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,e,ib,rbx,rby\n1,0,1,0,0,0.5,1,0,1,1.5,0,1\n");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == want);
    // Giving the ball's rigid columns as zeros (no spin, no inverse inertia, hit at its centre)
    // describes the same point mass: the same output.
    CHECK(run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,e,ib,rbx,rby,oma,ia,rax,ray,omb\n"
                  "1,0,1,0,0,0.5,1,0,1,1.5,0,1,0,0,0,0,0\n")
              .out == want);
}

TEST_CASE("the 3D rod struck at its end spins about z with the 2D numbers", "[cli][rigid][3d]")
{
    // The rod as a box of sides (0, 2, 0): moments (2/3, 0, 2/3), world inverse inertia
    // diag(1.5, 0, 1.5). rB = (0, 1, 0), n = (1, 0, 0): rB x n = (0, 0, -1), k = 1 + 0.5 + 1.5 = 3,
    // so jn, the ball and the rod's velocity are those of the 2D test; omega = diag(1.5, 0, 1.5)
    // (rB x J) = diag(1.5, 0, 1.5) (0, 0, -fl(2/3)) = (0, 0, -1) (the same tie to even as in 2D).
    const Ran r = run_csv(with(head3d, "e,ibxx,ibyy,ibzz,ibxy,ibxz,ibyz,rbx,rby,rbz") +
                          "1,0,0,1,0,0,0,0.5,1,0,0,1,1.5,0,1.5,0,0,0,0,1,0\n");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == out3r + "0.6666666666666666,0,0,0,0.33333333333333337,0,0,0.3333333333333333,0,0,"
                           "0,0,0,0,0,-1,sticking\n");
}

TEST_CASE("a spinning wheel landing on a floor is pushed against its spin", "[cli][rigid]")
{
    // Floor A static. Wheel B: wb = 1, ib = 2, falling at (0, -1) and spinning at omega = 2
    // (counter-clockwise), touching the floor at rB = (0, -1); n = (0, 1); e = 0; mu = 0.5.
    //   Contact point: v + omega x rB = (0, -1) + 2 * (1, 0) = (2, -1): it slides towards +x.
    //   Normal: rB x n = 0, k = 1: jn = 1, wheel (0, 0), spin unchanged.
    //   Friction: t = (-1, 0), vt = -2; rB x t = -1, k(t) = 1 + 1 * 2 = 3; stopping the slide
    //   needs 2/3 > cap = 0.5 * 1: sliding, 0.5 along t = (-0.5, 0). Wheel: (-0.5, 0);
    //   omega = 2 + 2 * (rB x J) = 2 + 2 * (0*0 - (-1)(-0.5)) = 2 - 1 = 1.
    const Ran r = run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,mu,omb,ib,rbx,rby\n0,0,0,0,-1,1,0,1,0.5,2,2,0,-1\n");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == out2r + "1,-0.5,0,0,0,-0.5,0,0,1,sliding\n");
}

TEST_CASE("rigid columns of zero are point masses: the point-mass numbers, and zero spins", "[cli][rigid]")
{
    // The tangent trace and the 3D floor with every rigid quantity zero: no spin, no inverse
    // inertia, the contact at the centres. The hand-derived point-mass numbers, spins of 0.
    CHECK(run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,e,mu,oma,omb,ia,ib,rax,ray,rbx,rby\n"
                  "0,0,0,3,-3,1,0,1,0.5,0.4,0,0,0,0,0,0,0,0\n")
              .out == out2r + "4.5,-1.8,0,0,0,1.2,1.5,0,0,sliding\n");
    CHECK(run_csv(with(head3d, "e,mu,omax,omay,omaz,rbx,rby,rbz") +
                  "0,0,0,0,3,4,-2,1,0,0,1,0,0.5,0,0,0,0,0,0\n")
              .out ==
          out3r + "2,-0.6,-0.8,-0,0,0,0,2.4,3.2,0,0,0,0,0,0,0,sliding\n");
}

TEST_CASE("each body's rigid quantities are independent: a spinning A beside a point-mass B", "[cli][rigid]")
{
    // oma without omb is no partial group: B stays a point mass. A is a driven turntable: static
    // (wa = 0, no ia: it cannot be spun) but turning at oma = 1, touched at rA = (0, 1) on its
    // top. B (wb = 1) rests on it, n = (0, 1), mu = 1, given jn = 1.
    //   A's contact point moves at omega x rA = 1 * (-1, 0) = (-1, 0); rv = (0, 0) - (-1, 0) =
    //   (1, 0); t = (-1, 0), vt = -1, k(t) = 1: stopping the slide takes 1 <= mu*jn = 1: sticking,
    //   J = 1 along t = (-1, 0). B moves off at (-1, 0), the turntable's surface speed; A keeps
    //   its spin.
    CHECK(run_csv("vax,vay,wa,vbx,vby,wb,nx,ny,mu,jn,oma,rax,ray\n0,0,0,0,0,1,0,1,1,1,1,0,1\n").out ==
          out2r + "1,-1,0,0,0,-1,0,1,0,sticking\n");
}

// ---------------------------------------------------------------------------------------------
// Rigid bodies: --coupled

TEST_CASE("with --coupled the normal target holds and the slide stops where the sequential solve misses",
          "[cli][rigid][coupled]")
{
    // A rod (m = 1, length 2: wb = 1, I = 1/3, ib = 3) tilted 45 degrees falls at (1, -2) onto a
    // static floor, touching it with its lower end rB = (-s, -s), s = sqrt(1/2); n = (0, 1),
    // t = (-1, 0), e = 0.5, mu = 5. With p = perp(rB) = (s, -s), K = wb 1 + ib p p^T
    // = [[2.5, -1.5], [-1.5, 2.5]]; the end moves at (1, -2) (no spin yet): vn = -2, vt = -1.
    //   Sequential: k(n) = 2.5, jn = 1.5 * 2 / 2.5 = 1.2; rod (1, -0.8), omega = 3 (rB x 1.2 n)
    //   = -3.6 s; end (1 - 1.8, -0.8 + 1.8) = (-0.8, 1): vn = 1 = -e*vn, but vt = 0.8 remains.
    //   Friction: k(t) = 2.5, want -0.32 along t, cap 6: sticking, J = (0.32, 0); rod (1.32, -0.8),
    //   omega = -3.6 s + 3 * 0.32 s = -2.64 s; end (1.32 - 1.32, -0.8 + 1.32) = (0, 0.52): the
    //   friction impulse turned the rod and took the end's normal speed from 1 down to 0.52.
    //   Coupled: in the basis (n, t), Kc = [[2.5, 1.5], [1.5, 2.5]], solve Kc j = (3, 1) (the
    //   normal speed change -(1 + e) vn = 3, the tangential -vt = 1): j = (1.5, -0.5), inside the
    //   cone (0.5 <= 5 * 1.5): sticking, J = 1.5 n - 0.5 t = (0.5, 1.5); rod (1.5, -0.5),
    //   omega = 3 (rB x J) = 3 (-1.5 s + 0.5 s) = -3 s; end (1.5 - 1.5, -0.5 + 1.5) = (0, 1):
    //   vn = 1 = -e*vn and vt = 0 both hold.
    // Rounding: a few dozen operations on numbers near 1 (s printed to 16 digits): 1e-12.
    const double s = std::sqrt(0.5);
    const std::string csv = "vax,vay,wa,vbx,vby,wb,nx,ny,e,mu,ib,rbx,rby\n0,0,0,1,-2,1,0,1,0.5,5,3," +
                            number(-s) + "," + number(-s) + "\n";
    const double tol = 1e-12;
    auto end_velocity = [&](const std::vector<double>& x) {  // fields: jn jtx jty vax vay vbx vby oma omb
        return impulse::Vec2d(x[5] + x[8] * s, x[6] - x[8] * s);  // v + omega (-rBy, rBx)
    };

    const Ran seq = run_csv(csv);
    REQUIRE(seq.status == 0);
    CHECK(fields(first_result(seq.out)).back() == "sticking");
    const std::vector<double> a = numbers(first_result(seq.out));
    CHECK(a[0] == Approx(1.2).margin(tol));
    CHECK(a[1] == Approx(0.32).margin(tol));
    CHECK(a[5] == Approx(1.32).margin(tol));
    CHECK(a[6] == Approx(-0.8).margin(tol));
    CHECK(a[8] == Approx(-2.64 * s).margin(tol));
    CHECK(end_velocity(a).y() == Approx(0.52).margin(tol));

    const Ran cpl = run_cli({"--coupled"}, csv);
    REQUIRE(cpl.status == 0);
    CHECK(cpl.err.empty());
    CHECK(fields(first_result(cpl.out)).back() == "sticking");
    const std::vector<double> b = numbers(first_result(cpl.out));
    CHECK(b[0] == Approx(1.5).margin(tol));
    CHECK(b[1] == Approx(0.5).margin(tol));
    CHECK(b[2] == Approx(0.0).margin(tol));
    CHECK(b[5] == Approx(1.5).margin(tol));
    CHECK(b[6] == Approx(-0.5).margin(tol));
    CHECK(b[8] == Approx(-3 * s).margin(tol));
    CHECK(end_velocity(b).x() == Approx(0.0).margin(tol));
    CHECK(end_velocity(b).y() == Approx(1.0).margin(tol));
}

TEST_CASE("with --coupled the rod struck at its end gets the sequential numbers (nothing couples there)",
          "[cli][rigid][coupled]")
{
    // rB = (0, 1) and n = (1, 0): K = 1.5 * 1 + 1.5 * perp(rB) perp(rB)^T = diag(3, 1.5) has no
    // normal-tangent term, so the coupled solve is the normal solve 2/3 and a zero tangential
    // one (no tangential speed). The hand-derived numbers of the rod tests, to rounding (the
    // coupled solve inverts the matrix instead of dividing).
    const std::vector<std::pair<std::string, std::vector<double>>> cases = {
        {"vax,vay,wa,vbx,vby,wb,nx,ny,e,ib,rbx,rby\n1,0,1,0,0,0.5,1,0,1,1.5,0,1\n",
         {2.0 / 3, 0, 0, 1.0 / 3, 0, 1.0 / 3, 0, 0, -1}},
        {with(head3d, "e,ibxx,ibyy,ibzz,ibxy,ibxz,ibyz,rbx,rby,rbz") +
             "1,0,0,1,0,0,0,0.5,1,0,0,1,1.5,0,1.5,0,0,0,0,1,0\n",
         {2.0 / 3, 0, 0, 0, 1.0 / 3, 0, 0, 1.0 / 3, 0, 0, 0, 0, 0, 0, 0, -1}},
    };
    for (const auto& [csv, want] : cases) {
        const Ran r = run_cli({"--coupled", "-"}, csv);
        REQUIRE(r.status == 0);
        CHECK(r.err.empty());
        const std::vector<double> got = numbers(first_result(r.out));
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            CAPTURE(i);
            CHECK(got[i] == Approx(want[i]).margin(1e-15));
        }
        CHECK(fields(first_result(r.out)).back() == "sticking");
    }
}

TEST_CASE("with --coupled the output is bit for bit what impulse::resolve_coupled computes",
          "[cli][rigid][coupled]")
{
    // Two spinning bodies touching off-centre in 3D, sliding with friction: everything couples.
    // A's inverse inertia is a full symmetric tensor (its upper triangle in the file).
    using V = impulse::Vec3d;
    impulse::RigidBody<double, 3> A, B;
    A.v = V(0.5, -1, 0.25);
    B.v = V(-2, 1.5, -3);
    A.inv_mass = 0.5;
    B.inv_mass = 0.25;
    A.omega = V(1, -2, 0.5);
    B.omega = V(-0.75, 0.5, 2);
    A.inv_inertia << 2, 0.5, -0.25, 0.5, 1.5, 0.125, -0.25, 0.125, 1;
    B.inv_inertia = V(3, 0.5, 1.25).asDiagonal();
    const V rA(0.3, -0.4, 0.9), rB(-0.6, 0.2, -0.7), n = V(0.2, 0.3, 0.9).normalized();
    std::string csv = "vax,vay,vaz,wa,vbx,vby,vbz,wb,nx,ny,nz,e,mus,muk,omax,omay,omaz,ombx,omby,ombz,"
                      "iaxx,iayy,iazz,iaxy,iaxz,iayz,ibxx,ibyy,ibzz,ibxy,ibxz,ibyz,rax,ray,raz,rbx,rby,rbz\n";
    for (double x : {A.v.x(), A.v.y(), A.v.z(), A.inv_mass, B.v.x(), B.v.y(), B.v.z(), B.inv_mass, n.x(), n.y(),
                     n.z(), 0.4, 0.6, 0.5, A.omega.x(), A.omega.y(), A.omega.z(), B.omega.x(), B.omega.y(),
                     B.omega.z(), A.inv_inertia(0, 0), A.inv_inertia(1, 1), A.inv_inertia(2, 2),
                     A.inv_inertia(0, 1), A.inv_inertia(0, 2), A.inv_inertia(1, 2), B.inv_inertia(0, 0),
                     B.inv_inertia(1, 1), B.inv_inertia(2, 2), B.inv_inertia(0, 1), B.inv_inertia(0, 2),
                     B.inv_inertia(1, 2), rA.x(), rA.y(), rA.z(), rB.x(), rB.y(), rB.z()})
        csv += number(x) + ",";
    csv.back() = '\n';

    // The tool makes n unit length its own way (by the largest component, then the length).
    V m = n / n.cwiseAbs().maxCoeff();
    m /= m.norm();
    impulse::Coefficients<double> coefficients;
    coefficients.restitution = 0.4;
    coefficients.friction = impulse::Friction<double>(0.6, 0.5);
    const auto res = impulse::resolve_coupled(A, rA, B, rB, m, coefficients);
    std::vector<double> want = {res.jn};
    for (const V& x : {res.friction_impulse, A.v, B.v, A.omega, B.omega})
        for (int i = 0; i < 3; ++i) want.push_back(x[i]);

    const Ran r = run_cli({"--coupled"}, csv);
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out.rfind(out3r, 0) == 0);
    const std::vector<double> got = numbers(first_result(r.out));
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        CAPTURE(i, got[i], want[i]);
        CHECK(same_bits(got[i], want[i]));
    }
    CHECK(fields(first_result(r.out)).back() == impulse::to_string(res.regime));
    // The contact really couples: the sequential solve gives another normal impulse.
    CHECK(numbers(first_result(run_csv(csv).out))[0] != got[0]);
}

// ---------------------------------------------------------------------------------------------
// Rigid bodies: errors

TEST_CASE("a partial rigid-body group is an error", "[cli][rigid][error]")
{
    // A quantity's columns come all or none; in 3D the offsets have three columns.
    check_error(with(head2d, "rax"),
                "1: column 'rax': the offset of A columns 'rax,ray' come all or none; missing 'ray'", "");
    check_error(with(head2d, "rby"),
                "1: column 'rby': the offset of B columns 'rbx,rby' come all or none; missing 'rbx'", "");
    check_error(with(head3d, "rax,ray"),
                "1: column 'rax': the offset of A columns 'rax,ray,raz' come all or none; missing 'raz'", "");
    check_error(with(head3d, "ombz,omby"),
                "1: column 'omby': the angular velocity of B columns 'ombx,omby,ombz' come all or none; "
                "missing 'ombx'",
                "");
    check_error(with(head3d, "iaxx,iayy,iazz,iaxy,iaxz"),
                "1: column 'iaxx': the inverse inertia of A columns 'iaxx,iayy,iazz,iaxy,iaxz,iayz' come all or "
                "none; missing 'iayz'",
                "");
}

TEST_CASE("a 2D rigid column in a 3D file is an error, naming the 3D columns", "[cli][rigid][error]")
{
    check_error(with(head3d, "oma"),
                "1: column 'oma': a 2D column, but the file is 3D (it has 'vaz,vbz,nz'); in 3D give "
                "'omax,omay,omaz'",
                "");
    check_error(with(head3d, "e,ib"),
                "1: column 'ib': a 2D column, but the file is 3D (it has 'vaz,vbz,nz'); in 3D give "
                "'ibxx,ibyy,ibzz,ibxy,ibxz,ibyz'",
                "");
}

TEST_CASE("a 3D rigid column in a 2D file is an error", "[cli][rigid][error]")
{
    check_error(with(head2d, "omax,omay,omaz"),
                "1: column 'omax': a 3D column, but the file is 2D (it has no 'vaz,vbz,nz'); in 2D give 'oma'",
                "");
    check_error(with(head2d, "rax,ray,raz"),
                "1: column 'raz': a 3D column, but the file is 2D (it has no 'vaz,vbz,nz')", "");
    check_error(with(head2d, "ibxx,ibyy,ibzz,ibxy,ibxz,ibyz"),
                "1: column 'ibxx': a 3D column, but the file is 2D (it has no 'vaz,vbz,nz'); in 2D give 'ib'",
                "");
}

TEST_CASE("a negative inverse inertia is an error", "[cli][rigid][error]")
{
    check_error(with(head2d, "ia") + "0,0,0,0,-2,1,0,1,-1\n",
                "2: column 'ia': inverse inertia must be >= 0, got \"-1\"", out2r);
    // 3D: a diagonal entry is an inverse moment about an axis.
    check_error(with(head3d, "ibxx,ibyy,ibzz,ibxy,ibxz,ibyz") + "0,0,0,0,0,0,-2,1,0,0,1,1,-0.5,1,0,0,0\n",
                "2: column 'ibyy': inverse inertia must be >= 0, got \"-0.5\"", out3r);
}

TEST_CASE("a 3D inverse inertia that is not positive semi-definite is an error", "[cli][rigid][error]")
{
    const std::string head = with(head3d, "iaxx,iayy,iazz,iaxy,iaxz,iayz");
    // [[1, 2, 0], [2, 1, 0], [0, 0, 1]]: diagonal fine, but along (1, -1, 0)/sqrt 2 the value is
    // 1 - 2 = -1: eigenvalues -1, 1, 3.
    check_error(head + "0,0,0,0,0,0,-2,1,0,0,1,1,1,1,2,0,0\n",
                "2: columns 'iaxx', 'iayy', 'iazz', 'iaxy', 'iaxz', 'iayz': the inverse inertia of A is not "
                "positive semi-definite: its smallest eigenvalue is -1 (none may lie below -1e-10 times the "
                "largest)",
                out3r);
    // A rod turned 30 degrees about z (inverse moments 1.5, 0, 1.5): [[1.125, b, 0], [b, 0.375, 0],
    // [0, 0, 1.5]] with b = 1.5 cos 30 sin 30 = 0.649519052838329..., eigenvalues 0, 1.5, 1.5.
    // Written to 12 digits and rounded up, b = 0.649519052839 makes the smallest eigenvalue about
    // (0.421875 - b^2) / 1.5 = -5.8e-13, within the allowance (1e-10 * 1.5): accepted.
    const Ran ok = run_csv(head + "0,0,0,0,0,0,-2,1,0,0,1,1.125,0.375,1.5,0.649519052839,0,0\n");
    CHECK(ok.status == 0);
    CHECK(ok.err.empty());
    // With b = 0.64952 (5 digits) it is about -8.2e-7, far beyond rounding: refused.
    const Ran bad = run_csv(head + "0,0,0,0,0,0,-2,1,0,0,1,1.125,0.375,1.5,0.64952,0,0\n");
    CHECK(bad.status == 2);
    CHECK(bad.err.find("2: columns 'iaxx', 'iayy', 'iazz', 'iaxy', 'iaxz', 'iayz': the inverse inertia of A is "
                       "not positive semi-definite: its smallest eigenvalue is -8.2") != std::string::npos);
}

TEST_CASE("rigid-body numbers too large for double are errors", "[cli][rigid][error]")
{
    check_error(with(head2d, "rax,ray") + "0,0,0,0,-2,1,0,1,1e51,0\n",
                "2: column 'rax': offset must lie within +-1e50 (larger ones overflow double), got \"1e51\"",
                out2r);
    check_error(with(head2d, "omb") + "0,0,0,0,-2,1,0,1,-2e150\n",
                "2: column 'omb': angular velocity must lie within +-1e150 (larger ones overflow double), got "
                "\"-2e150\"",
                out2r);
    check_error(with(head2d, "ib") + "0,0,0,0,-2,1,0,1,1e151\n",
                "2: column 'ib': inverse inertia must be <= 1e150 (larger ones overflow double), got \"1e151\"",
                out2r);
    check_error(with(head3d, "iaxx,iayy,iazz,iaxy,iaxz,iayz") + "0,0,0,0,0,0,-2,1,0,0,1,1,1,1,0,-1e151,0\n",
                "2: column 'iaxz': inverse inertia must lie within +-1e150 (larger ones overflow double), got "
                "\"-1e151\"",
                out3r);
    // The impulse bound counts the contact point's velocity, spin included: B (wb = 0.5) falls at
    // (0, -1) but spins at 1e150 about its centre 1 above the contact, whose point therefore
    // moves at (1e150, -1): |rv| / (wA + wB) = 2e150 > 1e150. Without the spin it resolves.
    const std::string head = "vax,vay,wa,vbx,vby,wb,nx,ny,omb,ib,rbx,rby\n";
    check_error(head + "0,0,0,0,-1,0.5,0,1,1e150,1,0,-1\n",
                "2: the impulse |rv| / (wA + wB) exceeds 1e150 (too large for double; rv is the contact point's "
                "relative velocity)",
                out2r);
    CHECK(run_csv(head + "0,0,0,0,-1,0.5,0,1,0,1,0,-1\n").status == 0);
}

TEST_CASE("a given normal impulse with --coupled is an error", "[cli][rigid][coupled][error]")
{
    // The coupled solve computes jn together with friction; a given jn cannot be honoured.
    const std::string crate = "vax,vay,wa,vbx,vby,wb,nx,ny,mu,jn\n0,0,0,3,0,0.5,0,1,0.5,4\n";
    const Ran r = run_cli({"--coupled"}, "# crate\n" + crate);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "impulse-contact: <stdin>:2: column 'jn': --coupled computes the normal impulse together "
                   "with friction, so it cannot be given; drop the column or --coupled\n");
    // Without --coupled the same file is the crate trace.
    CHECK(run_cli({}, crate).status == 0);
}

TEST_CASE("the help option documents --coupled, the rigid-body columns and the rod example",
          "[cli][rigid][options]")
{
    const Ran r = run_cli({"--help"});
    CHECK(r.status == 0);
    for (const char* text : {"--coupled", " oma ", " omb", " ia ", " ib ", "omax,omay,omaz", "ombx,omby,ombz",
                             "iaxx,iayy,iazz,iaxy,iaxz,iayz", "ibxx,", "rax,ray", "rax,ray,raz", "rbx,rby",
                             "rbx,rby,rbz", "jn,jtx,jty,vax,vay,vbx,vby,oma,omb,regime",
                             "jn,jtx,jty,jtz,vax,vay,vaz,vbx,vby,vbz,omax,omay,omaz,ombx,omby,ombz,regime"})
        CHECK(r.out.find(text) != std::string::npos);
    // The rod struck at its end and the output derived by hand for it above.
    CHECK(r.out.find("    vax,vay,wa,vbx,vby,wb,nx,ny,e,ib,rbx,rby\n    1,0,1,0,0,0.5,1,0,1,1.5,0,1\n") !=
          std::string::npos);
    CHECK(r.out.find("    jn,jtx,jty,vax,vay,vbx,vby,oma,omb,regime\n"
                     "    0.6666666666666666,0,0,0.33333333333333337,0,0.3333333333333333,0,0,-1,sticking\n") !=
          std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Rigid bodies: round trip

namespace {

enum class Solve { sequential, coupled, given_jn };

template <class S>
Eigen::Matrix<S, 3, 3> random_rotation(std::mt19937& gen)
{
    std::normal_distribution<S> g(S(0), S(1));
    S c[4];  // drawn in order: a call's arguments are evaluated in an unspecified order
    for (S& x : c) x = g(gen);
    Eigen::Quaternion<S> q(c[0], c[1], c[2], c[3]);
    q.normalize();
    return q.toRotationMatrix();
}

/// One random file of rigid contacts: each body's angular velocity, inverse inertia and offset
/// present or not (absent ones are zero: a point mass), friction given one of two ways, columns
/// shuffled. Every output number is checked against impulse called directly on the same bodies.
template <int D>
void rigid_round_trip(unsigned seed, Solve solve, int rows)
{
    using V = impulse::Vec<double, D>;
    using Body = impulse::RigidBody<double, D>;
    test::Random<double, D> rnd(seed);

    // The rigid quantities: angular velocity, inverse inertia, offset, of A then B.
    enum { omA, omB, iA, iB, rA, rB };
    const std::vector<std::vector<std::string>> groups =
        D == 2 ? std::vector<std::vector<std::string>>{{"oma"}, {"omb"}, {"ia"}, {"ib"}, {"rax", "ray"},
                                                       {"rbx", "rby"}}
               : std::vector<std::vector<std::string>>{{"omax", "omay", "omaz"},
                                                       {"ombx", "omby", "ombz"},
                                                       {"iaxx", "iayy", "iazz", "iaxy", "iaxz", "iayz"},
                                                       {"ibxx", "ibyy", "ibzz", "ibxy", "ibxz", "ibyz"},
                                                       {"rax", "ray", "raz"},
                                                       {"rbx", "rby", "rbz"}};
    // Sequential and given-jn files have some rigid column (else they are point-mass files,
    // checked above); --coupled applies to point-mass files too.
    bool present[6];
    bool any = false;
    do {
        for (int g = 0; g < 6; ++g) any = (present[g] = rnd.chance(0.5)) || any;
    } while (!any && solve != Solve::coupled);

    std::vector<std::string> names = {"vax", "vay", "wa", "vbx", "vby", "wb", "nx", "ny"};
    if (D == 3) names.insert(names.end(), {"vaz", "vbz", "nz"});
    names.push_back(solve == Solve::given_jn ? "jn" : "e");
    const bool two_coefficients = rnd.chance(0.5);
    if (two_coefficients)
        names.insert(names.end(), {"mus", "muk"});
    else
        names.push_back("mu");
    for (int g = 0; g < 6; ++g)
        if (present[g]) names.insert(names.end(), groups[g].begin(), groups[g].end());
    std::shuffle(names.begin(), names.end(), rnd.gen);

    struct Contact {
        Body A, B;
        V rA, rB, n;
        double e, mu1, mu2, jn;
    };
    auto scale = [&] { return rnd.chance(0.2) ? std::pow(10.0, rnd.uniform(-20, 20)) : 5.0; };
    auto spin = [&]() -> impulse::Angular<double, D> {
        const double s = rnd.chance(0.2) ? std::pow(10.0, rnd.uniform(-10, 10)) : 3.0;
        if constexpr (D == 2) return rnd.uniform(-1, 1) * s;
        else return rnd.vec(-1, 1) * s;
    };
    auto inverse_inertia = [&]() -> impulse::Inertia<double, D> {
        if constexpr (D == 2) {
            return rnd.chance(0.15) ? 0.0 : 1.0 / rnd.uniform(0.05, 3);
        } else {
            // A body's principal moments (0 now and then: a rod's axis), turned anyhow; the file
            // gives the upper triangle, so the tensor used is the one mirrored from it.
            impulse::Vec3d moments;
            for (int i = 0; i < 3; ++i) moments[i] = rnd.chance(0.1) ? 0.0 : rnd.uniform(0.05, 3);
            Eigen::Matrix3d I = impulse::world_inverse_inertia(moments, random_rotation<double>(rnd.gen));
            I.template triangularView<Eigen::StrictlyLower>() = I.transpose();
            return I;
        }
    };
    auto offset = [&]() -> V {
        if (rnd.chance(0.1)) return V::Zero();
        return rnd.vec(-1, 1) * (rnd.chance(0.2) ? std::pow(10.0, rnd.uniform(-5, 5)) : 1.0);
    };

    std::vector<Contact> contacts;
    std::string csv;
    for (std::size_t i = 0; i < names.size(); ++i) csv += (i ? "," : "") + names[i];
    csv += '\n';
    for (int i = 0; i < rows; ++i) {
        Contact c;
        c.A.v = rnd.chance(0.3) ? V(V::Zero()) : V(rnd.vec(-1, 1) * scale());
        c.B.v = rnd.vec(-1, 1) * scale();
        c.A.inv_mass = rnd.inverse_mass(true);
        c.B.inv_mass = rnd.inverse_mass(true);
        if (present[omA]) c.A.omega = spin();
        if (present[omB]) c.B.omega = spin();
        if (present[iA]) c.A.inv_inertia = inverse_inertia();
        if (present[iB]) c.B.inv_inertia = inverse_inertia();
        c.rA = present[rA] ? offset() : V(V::Zero());
        c.rB = present[rB] ? offset() : V(V::Zero());
        c.n = rnd.chance(0.2) ? V(V::Unit(rnd.chance(0.5) ? 0 : D - 1) * 3.0) : V(rnd.vec(-1, 1) * scale());
        if (c.n == V::Zero()) c.n = V::UnitX();
        c.e = rnd.chance(0.2) ? (rnd.chance(0.5) ? 0.0 : 1.0) : rnd.uniform(0, 1);
        c.mu1 = rnd.uniform(0, 1.5);
        c.mu2 = rnd.uniform(0, 1.5);
        c.jn = rnd.chance(0.1) ? 0.0 : rnd.uniform(0, 10) * scale();
        contacts.push_back(c);
        for (std::size_t k = 0; k < names.size(); ++k) {
            const std::string& f = names[k];
            const int axis = f.back() - 'x';  // for vectors: x, y, z
            double x = 0;
            if (f == "wa") x = c.A.inv_mass;
            else if (f == "wb") x = c.B.inv_mass;
            else if (f == "e") x = c.e;
            else if (f == "mu" || f == "mus") x = c.mu1;
            else if (f == "muk") x = c.mu2;
            else if (f == "jn") x = c.jn;
            else if (f == "nx" || f == "ny" || f == "nz") x = c.n[axis];
            else if (f[0] == 'v') x = (f[1] == 'a' ? c.A.v : c.B.v)[axis];
            else if (f[0] == 'r') x = (f[1] == 'a' ? c.rA : c.rB)[axis];
            else if constexpr (D == 2) {
                if (f == "oma") x = c.A.omega;
                else if (f == "omb") x = c.B.omega;
                else if (f == "ia") x = c.A.inv_inertia;
                else if (f == "ib") x = c.B.inv_inertia;
            } else {
                const Body& b = f[f[0] == 'o' ? 2 : 1] == 'a' ? c.A : c.B;
                if (f[0] == 'o') x = b.omega[axis];
                else x = b.inv_inertia(f[2] - 'x', f[3] - 'x');  // iaxy: row x, column y
            }
            if (k) csv += ',';
            csv += number(x);
        }
        csv += '\n';
    }

    const std::vector<std::string> args =
        solve == Solve::coupled ? std::vector<std::string>{"--coupled"} : std::vector<std::string>{};
    const Ran r = run_cli(args, csv);
    CAPTURE(r.err);
    REQUIRE(r.status == 0);
    REQUIRE(r.err.empty());
    const bool rigid = std::any_of(std::begin(present), std::end(present), [](bool p) { return p; });
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line);
    CHECK(line + "\n" == (D == 3 ? (rigid ? out3r : out3d) : (rigid ? out2r : out2d)));
    for (const Contact& c : contacts) {
        REQUIRE(std::getline(lines, line));
        CAPTURE(line);
        const std::vector<std::string> got = fields(line);

        // The contact as impulse resolves it directly, n made unit length as --help documents.
        Body A = c.A, B = c.B;
        V n = c.n / c.n.cwiseAbs().maxCoeff();
        n /= n.norm();
        impulse::Coefficients<double> coefficients;
        coefficients.restitution = c.e;
        coefficients.friction =
            two_coefficients ? impulse::Friction<double>(c.mu1, c.mu2) : impulse::Friction<double>(c.mu1);
        double jn = 0;
        V J = V::Zero();
        impulse::Regime regime;
        if (solve == Solve::given_jn) {
            // --help: friction only, capped by the given jn; immovable when no impulse at the
            // contact changes its velocity.
            const impulse::RigidContact<double, D> contact(A, c.rA, B, c.rB);
            jn = c.jn;
            if (contact.inverse_mass_matrix().isZero(0)) {
                regime = impulse::Regime::immovable;
            } else {
                const auto f =
                    impulse::friction_impulse(contact, contact.relative_velocity(), n, c.jn, coefficients.friction);
                contact.apply(f.J);
                J = f.J;
                regime = f.regime;
            }
        } else {
            const auto res = solve == Solve::coupled ? impulse::resolve_coupled(A, c.rA, B, c.rB, n, coefficients)
                                                     : impulse::resolve(A, c.rA, B, c.rB, n, coefficients);
            jn = res.jn;
            J = res.friction_impulse;
            regime = res.regime;
        }

        std::vector<double> want = {jn};
        for (const V& x : {J, A.v, B.v})
            for (int i = 0; i < D; ++i) want.push_back(x[i]);
        if (rigid) {
            if constexpr (D == 2) {
                want.push_back(A.omega);
                want.push_back(B.omega);
            } else {
                for (const V& x : {A.omega, B.omega})
                    for (int i = 0; i < 3; ++i) want.push_back(x[i]);
            }
        }
        REQUIRE(got.size() == want.size() + 1);
        bool exact = true;
        for (std::size_t i = 0; i < want.size(); ++i) exact = exact && same_bits(parse(got[i]), want[i]);
        CHECK(exact);
        CHECK(got.back() == impulse::to_string(regime));
    }
    CHECK_FALSE(std::getline(lines, line));
}

}  // namespace

TEST_CASE("rigid output read back is bit for bit what impulse computes for the same bodies",
          "[cli][rigid][property]")
{
    // 2 dimensions x 3 ways of solving x 12 files (each its own choice of rigid columns) x 100 rows.
    unsigned seed = 100;
    for (const Solve solve : {Solve::sequential, Solve::coupled, Solve::given_jn}) {
        for (int file = 0; file < 12; ++file) {
            CAPTURE(int(solve), file);
            rigid_round_trip<2>(seed++, solve, 100);
            rigid_round_trip<3>(seed++, solve, 100);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The edges: write errors, long lines, a byte-order mark, file names

namespace {

/// An output that takes `room` bytes, then fails every write with errno `code`: ENOSPC is a full
/// disk (/dev/full), EPIPE a reader that went away. Buffered, it gathers writes in a buffer of
/// 4 KiB first, as a file does, and fails when the buffer is full or flushed.
class FailingOutput : public std::streambuf {
public:
    FailingOutput(std::size_t room, int code, bool buffered) : room_(room), code_(code)
    {
        if (buffered) setp(buffer_, buffer_ + sizeof buffer_);
    }

protected:
    int_type overflow(int_type c) override
    {
        if (!drain()) return traits_type::eof();
        if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
        if (pbase()) return sputc(traits_type::to_char_type(c));  // room again after the drain
        if (taken_ == room_) {
            errno = code_;
            return traits_type::eof();
        }
        ++taken_;
        return c;
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    /// Hands the gathered bytes to the device.
    bool drain()
    {
        const std::size_t n = static_cast<std::size_t>(pptr() - pbase());
        if (n == 0) return true;
        if (room_ - taken_ < n) {
            errno = code_;
            return false;
        }
        taken_ += n;
        setp(buffer_, buffer_ + sizeof buffer_);
        return true;
    }

    std::size_t room_, taken_ = 0;
    int code_;
    char buffer_[4096];
};

/// Input made while it is read: `head`, then `unit` `times` times, then `tail`. It holds one
/// chunk of `chunk` bytes at a time, so it can be far longer than the memory it takes;
/// served() is how many bytes it has handed out.
class Generated : public std::streambuf {
public:
    static constexpr std::size_t chunk = 4096;

    Generated(std::string head, std::string unit, std::uint64_t times, std::string tail = "")
        : head_(std::move(head)), unit_(std::move(unit)), tail_(std::move(tail)), times_(times)
    {
    }
    std::uint64_t served() const { return served_; }

protected:
    int_type underflow() override
    {
        std::size_t n = 0;
        while (n < chunk && next(buffer_[n])) ++n;
        if (n == 0) return traits_type::eof();
        served_ += n;
        setg(buffer_, buffer_, buffer_ + n);
        return traits_type::to_int_type(buffer_[0]);
    }

private:
    bool next(char& c)
    {
        if (part_ == 0) {
            if (at_ < head_.size()) return c = head_[at_++], true;
            part_ = 1, at_ = 0;
        }
        if (part_ == 1) {
            if (done_ < times_ && !unit_.empty()) {
                c = unit_[at_++];
                if (at_ == unit_.size()) at_ = 0, ++done_;
                return true;
            }
            part_ = 2, at_ = 0;
        }
        if (at_ < tail_.size()) return c = tail_[at_++], true;
        return false;
    }

    std::string head_, unit_, tail_;
    std::uint64_t times_, done_ = 0, served_ = 0;
    std::size_t at_ = 0;
    int part_ = 0;
    char buffer_[chunk];
};

/// Runs the whole command line with its output going to `sink` (so not captured).
Ran run_cli_to(std::streambuf& sink, const std::vector<std::string>& args, std::istream& in)
{
    std::ostream out(&sink);
    std::ostringstream err;
    const int status = impulse_contact::cli(args, in, out, err);
    return {status, "", err.str()};
}

const std::string full_disk = "impulse-contact: cannot write the output: No space left on device\n";
const std::string crate = "vax,vay,wa,vbx,vby,wb,nx,ny,mu,jn\n0,0,0,3,0,0.5,0,1,0.5,4\n";

/// The peak resident memory of this process so far, in KiB (Linux: getrusage's ru_maxrss).
long peak_rss_kib()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

}  // namespace

TEST_CASE("help and version written to a full disk exit 2 with a write error", "[cli][options][write]")
{
    for (const char* option : {"--help", "-h", "--version"}) {
        CAPTURE(option);
        FailingOutput full(0, ENOSPC, true);
        std::istringstream in;
        const Ran r = run_cli_to(full, {option}, in);
        CHECK(r.status == 2);
        CHECK(r.err == full_disk);
    }
}

TEST_CASE("results written to a full disk exit 2 with a write error", "[cli][write]")
{
    FailingOutput full(0, ENOSPC, true);
    std::istringstream in(crate);
    const Ran r = run_cli_to(full, {}, in);
    CHECK(r.status == 2);
    CHECK(r.err == full_disk);
}

TEST_CASE("a bad line with a full disk reports the bad line and the write error", "[cli][write]")
{
    FailingOutput full(0, ENOSPC, true);
    std::istringstream in(head2d + "0,0,0,0,-2,1,0,1\n0,0,0,0,-2,1,0,abc\n");
    const Ran r = run_cli_to(full, {}, in);
    CHECK(r.status == 2);
    CHECK(r.err == "impulse-contact: <stdin>:3: column 'ny': expected a number, got \"abc\"\n" + full_disk);
}

TEST_CASE("a closed output stops the run at its first failed write, not at the end of the input",
          "[cli][write]")
{
    // 100,000 contacts (1.7 MB); the output takes 100 bytes, then fails as a pipe whose reader
    // left: the header (34 bytes) and two results (23 each) fit, the third result does not. The
    // reader must not have asked for more than its first chunk of input.
    Generated input(head2d, "0,0,0,0,-2,1,0,1\n", 100000);
    std::istream in(&input);
    FailingOutput closed(100, EPIPE, false);
    const Ran r = run_cli_to(closed, {}, in);
    CHECK(r.status == 2);
    CHECK(r.err == "impulse-contact: cannot write the output: Broken pipe\n");
    CHECK(input.served() <= Generated::chunk);
}

TEST_CASE("a 10 MB line of commas is refused at the line limit, reading no more of it", "[cli][limits]")
{
    // The header has 10 columns; the line 10,485,761 empty fields. It is refused once 65536 bytes
    // of it are read: the rest is never asked for, and memory grows by about the limit, not by
    // the line (before: 284 MB for the fields).
    const std::string head = "vax,vay,wa,vbx,vby,wb,nx,ny,e,mu\n";
    Generated input(head, ",", 10485760, "\n");
    std::istream in(&input);
    std::ostringstream out, err;
    const long before = peak_rss_kib();
    const int status = impulse_contact::run(in, "contacts.csv", out, err);
    const long grown = peak_rss_kib() - before;
    CHECK(status == 2);
    CHECK(out.str() == out2d);
    CHECK(err.str() == "impulse-contact: contacts.csv:2: the line is longer than 65536 bytes, the limit "
                       "for a line that is not a comment\n");
    CHECK(input.served() <= head.size() + 65536 + 2 * Generated::chunk);
    CAPTURE(grown);
#if defined(__linux__)
    CHECK(grown < 2048);  // KiB; the line alone would be 10240
#endif
}

TEST_CASE("a comment line may be longer than the line limit", "[cli][limits]")
{
    // 10 MB of comment before the header: skipped without being kept.
    Generated input("# ", "comment ", 1310720, "\n" + head2d + "0,0,0,0,-2,1,0,1\n");
    std::istream in(&input);
    std::ostringstream out, err;
    const int status = impulse_contact::run(in, "contacts.csv", out, err);
    CHECK(status == 0);
    CHECK(err.str().empty());
    CHECK(out.str() == out2d + "2,0,0,0,0,0,0,sticking\n");
}

TEST_CASE("a line of exactly the line limit is read, one byte more is refused", "[cli][limits]")
{
    // With a limit of 40 bytes: the contact "0,0,0,0,-2,1,0,1" (16 bytes) padded with spaces,
    // which the last field's trimming drops. The header (28 bytes) fits.
    impulse_contact::Options options;
    options.max_line = 40;
    auto run_with = [&](const std::string& csv) {
        std::istringstream in(csv);
        std::ostringstream out, err;
        const int status = impulse_contact::run(in, "contacts.csv", out, err, options);
        return Ran{status, out.str(), err.str()};
    };
    const std::string contact = "0,0,0,0,-2,1,0,1";
    const std::string result = out2d + "2,0,0,0,0,0,0,sticking\n";
    for (const char* end : {"\n", ""}) {  // with a line end, and as the input's last bytes
        const Ran r = run_with(head2d + contact + std::string(24, ' ') + end);
        CHECK(r.status == 0);
        CHECK(r.out == result);
    }
    Ran r = run_with(head2d + contact + std::string(25, ' ') + "\n" + contact + "\n");
    CHECK(r.status == 2);
    CHECK(r.out == out2d);
    CHECK(r.err == "impulse-contact: contacts.csv:2: the line is longer than 40 bytes, the limit for a line "
                   "that is not a comment\n");
    // A CR before the line end is a byte of the line.
    r = run_with(head2d + contact + std::string(24, ' ') + "\r\n");
    CHECK(r.status == 2);
    // A comment of any length is skipped, before the header and after it.
    r = run_with("  # " + std::string(100, 'c') + "\n" + head2d + "#" + std::string(100, 'c') + "\n" + contact);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == result);
}

TEST_CASE("a line of many more fields than the header gives their exact count", "[cli][limits]")
{
    // Only the header's 8 fields are kept; the rest are counted: 60,000 commas, 60,001 fields.
    check_error(head2d + std::string(60000, ',') + "\n", "2: expected 8 fields, got 60001", out2d);
}

TEST_CASE("a header naming every column and one more stops at the duplicate", "[cli][header]")
{
    // 46 columns; the 47th name must repeat one of them (the reader keeps 47 names of a header).
    const std::string all = "vax,vay,vaz,wa,vbx,vby,vbz,wb,nx,ny,nz,e,mu,mua,mub,mus,muk,jn,oma,omb,omax,omay,"
                            "omaz,ombx,omby,ombz,ia,ib,iaxx,iayy,iazz,iaxy,iaxz,iayz,ibxx,ibyy,ibzz,ibxy,ibxz,"
                            "ibyz,rax,ray,raz,rbx,rby,rbz";
    CHECK(std::count(all.begin(), all.end(), ',') == 45);
    check_error(all + ",wb,nx\n", "1: column 'wb': duplicate column (also field 8)", "");
}

TEST_CASE("a UTF-8 byte-order mark at the start of the input is skipped", "[cli][header]")
{
    // B (w 1) at (0, -2) onto a static floor, n = (0, 1), e = 0: jn = 2 stops it, nothing slides.
    const std::string bom = "\xEF\xBB\xBF";
    const std::string result = out2d + "2,0,0,0,0,0,0,sticking\n";
    Ran r = run_csv(bom + head2d + "0,0,0,0,-2,1,0,1\n");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == result);
    r = run_csv(bom + "# exported\n" + head2d + "0,0,0,0,-2,1,0,1\n");
    CHECK(r.status == 0);
    CHECK(r.out == result);
    // Only at the start of the input: elsewhere its bytes are part of the column name.
    check_error("# exported\n" + bom + head2d,
                "2: column '\\xef\\xbb\\xbfvax': unknown column (--help lists the columns)", "");
}

TEST_CASE("file names are escaped in messages like option arguments", "[cli][options]")
{
    Ran r = run_cli({"a\nb.csv"});
    CHECK(r.status == 2);
    CHECK(r.err == "impulse-contact: a\\x0ab.csv: cannot open: No such file or directory\n");
    r = run_csv(head2d + "0,0,0,0,-2,1,0,x\n", "x\ny's.csv");
    CHECK(r.status == 2);
    CHECK(r.err == "impulse-contact: x\\x0ay\\'s.csv:2: column 'ny': expected a number, got \"x\"\n");
    // Shown whole, however long (option arguments and field values are cut at 40 bytes).
    const std::string name = "/nonexistent/" + std::string(60, 'd') + ".csv";
    r = run_cli({name});
    CHECK(r.err == "impulse-contact: " + name + ": cannot open: No such file or directory\n");
}

// ---------------------------------------------------------------------------------------------
// Underflow

namespace {
std::string quoted_text(const std::string& s) { return '"' + s + '"'; }
}  // namespace

TEST_CASE("a nonzero number below double's smallest normal number is refused: it underflows",
          "[cli][numbers]")
{
    // Below 2.2250738585072014e-308 a double keeps fewer digits (1e-320 reads as 9.99989e-321)
    // or none (1e-400 would read as 0): refused alike, whether from_chars rounds or gives up.
    const std::string head = "vax,vay,wa,vbx,vby,wb,nx,ny,e\n";
    const std::string underflows =
        "2: column 'e': the number underflows double (a nonzero magnitude below "
        "2.2250738585072014e-308 keeps fewer digits, or none), got ";
    for (const char* tiny : {"1e-400", "1e-320", "4e-324", "2e-324", "1e-308", "2.225073858507201e-308",
                             "0.0000000001e-300", "1e-99999999999999999999"}) {
        CAPTURE(tiny);
        check_error(head + "0,0,0,0,-2,1,0,1," + tiny + "\n", underflows + quoted_text(tiny), out2d);
    }
    check_error(head2d + "0,0,0,0,-2,1,-1e-400,1\n",
                "2: column 'nx': the number underflows double (a nonzero magnitude below "
                "2.2250738585072014e-308 keeps fewer digits, or none), got \"-1e-400\"",
                out2d);
    // Double's smallest normal number and zeros written with tiny exponents are read: with
    // e = 2.2250738585072014e-308, jn = (1 + e) * 2 / 1 = 2 (1 + e rounds to 1), as with e = 0.
    for (const char* fine : {"2.2250738585072014e-308", "0e-999", "-0.0e-400"}) {
        CAPTURE(fine);
        const Ran r = run_csv(head + "0,0,0,0,-2,1,0,1," + fine + "\n");
        CHECK(r.status == 0);
        CHECK(r.err.empty());
        CHECK(r.out == out2d + "2,0,0,0,0,0,0,sticking\n");
    }
}
