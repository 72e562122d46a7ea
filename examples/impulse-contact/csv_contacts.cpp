// SPDX-License-Identifier: MIT
// impulse-contact: the CSV reader, the per-contact evaluation and the writer.
//
// Columns are described by three tables: `columns` (every name the tool knows and how its value
// is checked), `groups` (columns that come together: required, or all-or-none), and `exclusive`
// (groups of which at most one may be given). Adding a group, e.g. the rigid-body columns
// oma,omb / ia,ib / rax,ray,rbx,rby, means: a Slot per column, a row in `columns`, a row in
// `groups` (and in `exclusive` if it replaces something), and its use in `evaluate`.
#include "csv_contacts.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include <impulse/impulse.hpp>

namespace impulse_contact {
namespace {

constexpr const char* program = "impulse-contact";

/// The largest velocity, inverse mass and impulse the tool accepts. Their squares (the 3D
/// friction takes vector lengths) must stay finite in double, with room for a few sums.
constexpr double limit = 1e150;

/// A bad line: the message after "impulse-contact: <file>:<line>: ".
struct BadInput : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------------------------
// The column tables

/// Every column the tool knows: one value slot each.
enum Slot : int {
    vax, vay, vaz, wa,  // body A: velocity, inverse mass
    vbx, vby, vbz, wb,  // body B
    nx, ny, nz,         // normal from A to B
    e,                  // restitution
    mu, mua, mub,       // friction: the pair's, or each body's (mixed by geometric mean)
    mus, muk,           // friction: static and kinetic
    jn,                 // normal impulse, given instead of computed
    slot_count
};

/// What a value must satisfy besides being a finite number.
enum class Check {
    any,            ///< any finite number (normal components)
    velocity,       ///< |x| <= limit
    inverse_mass,   ///< 0 <= x <= limit
    unit_interval,  ///< 0 <= x <= 1 (restitution)
    non_negative,   ///< x >= 0 (friction coefficients, normal impulse)
};

struct Column {
    const char* name;
    Check check;
    const char* what;  ///< what the value is, for messages
};

/// Indexed by Slot.
const std::array<Column, slot_count> columns = {{
    {"vax", Check::velocity, "velocity"},
    {"vay", Check::velocity, "velocity"},
    {"vaz", Check::velocity, "velocity"},
    {"wa", Check::inverse_mass, "inverse mass"},
    {"vbx", Check::velocity, "velocity"},
    {"vby", Check::velocity, "velocity"},
    {"vbz", Check::velocity, "velocity"},
    {"wb", Check::inverse_mass, "inverse mass"},
    {"nx", Check::any, "normal"},
    {"ny", Check::any, "normal"},
    {"nz", Check::any, "normal"},
    {"e", Check::unit_interval, "restitution"},
    {"mu", Check::non_negative, "friction coefficient"},
    {"mua", Check::non_negative, "friction coefficient"},
    {"mub", Check::non_negative, "friction coefficient"},
    {"mus", Check::non_negative, "friction coefficient"},
    {"muk", Check::non_negative, "friction coefficient"},
    {"jn", Check::non_negative, "normal impulse"},
}};

/// Columns that belong together. A required group needs every column; an optional one all or none.
struct Group {
    const char* what;
    std::vector<Slot> slots;
    bool required;
};

const std::vector<Group> groups = {
    {"velocity of A", {vax, vay}, true},
    {"inverse mass of A", {wa}, true},
    {"velocity of B", {vbx, vby}, true},
    {"inverse mass of B", {wb}, true},
    {"normal", {nx, ny}, true},
    {"3D", {vaz, vbz, nz}, false},
    {"restitution", {e}, false},
    {"pair friction", {mu}, false},
    {"per-body friction", {mua, mub}, false},
    {"static/kinetic friction", {mus, muk}, false},
    {"normal impulse", {jn}, false},
};

/// Groups that say the same thing different ways: at most one of each set may be given.
/// Each group is named by its first column.
struct Exclusive {
    std::vector<Slot> leaders;
    const char* what;
    const char* hint;
};

const std::vector<Exclusive> exclusive = {
    {{mu, mua, mus}, "friction", "give one of mu | mua,mub | mus,muk"},
    {{e, jn}, "the normal impulse", "'e' computes it, 'jn' gives it: use one"},
};

const Group& group_of(Slot s)
{
    for (const Group& g : groups)
        for (Slot t : g.slots)
            if (t == s) return g;
    throw std::logic_error("column without a group");  // the tables are inconsistent
}

// ---------------------------------------------------------------------------------------------
// Text helpers

constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s)
{
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split(std::string_view line)
{
    std::vector<std::string_view> fields;
    for (;;) {
        const std::size_t comma = line.find(',');
        fields.push_back(trim(line.substr(0, comma)));
        if (comma == std::string_view::npos) return fields;
        line.remove_prefix(comma + 1);
    }
}

/// `s` made printable for a message: control bytes and quotes escaped, long text shortened.
std::string printable(std::string_view s)
{
    constexpr std::size_t max_shown = 40;
    std::string out;
    const std::size_t n = s.size() < max_shown ? s.size() : max_shown;
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\' || c == '\'') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c >= 0x7f) {
            const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    if (s.size() > max_shown) out += "...";
    return out;
}

std::string quoted(std::string_view s) { return '"' + printable(s) + '"'; }

/// ": <the system's words for errno code>", or nothing when there is no code.
std::string reason(int code) { return code ? std::string(": ") + std::strerror(code) : std::string(); }

std::string column_label(Slot s) { return std::string("column '") + columns[s].name + "'"; }

/// "'mua,mub'": a group's columns, for messages.
std::string group_label(const Group& g)
{
    std::string out = "'";
    for (std::size_t i = 0; i < g.slots.size(); ++i) {
        if (i) out += ',';
        out += columns[g.slots[i]].name;
    }
    return out + "'";
}

/// Appends x in the shortest form that reads back to the same double.
void put_number(std::string& out, double x)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    out.append(buf, r.ptr);
}

/// Reads one field as a finite double and checks it against its column's rule. The whole field
/// must be the number; a leading '+' is accepted.
double parse_value(std::string_view field, Slot s)
{
    std::string_view t = field;
    if (!t.empty() && t.front() == '+') {
        t.remove_prefix(1);
        if (!t.empty() && (t.front() == '-' || t.front() == '+')) t = {};  // "+-1": no number
    }
    double x = 0;
    const char* end = t.data() + t.size();
    const auto r = std::from_chars(t.data(), end, x);
    if (t.empty() || r.ec == std::errc::invalid_argument || r.ptr != end)
        throw BadInput(column_label(s) + ": expected a number, got " + quoted(field));
    if (r.ec == std::errc::result_out_of_range)
        throw BadInput(column_label(s) + ": expected a number within the range of double, got " +
                       quoted(field));
    if (!std::isfinite(x))
        throw BadInput(column_label(s) + ": expected a finite number, got " + quoted(field));

    const Column& c = columns[s];
    switch (c.check) {
    case Check::any: break;
    case Check::velocity:
        if (!(std::fabs(x) <= limit))
            throw BadInput(column_label(s) + ": velocity must lie within +-1e150 (larger ones overflow "
                                             "double), got " + quoted(field));
        break;
    case Check::inverse_mass:
        if (x < 0) throw BadInput(column_label(s) + ": inverse mass must be >= 0, got " + quoted(field));
        if (x > limit)
            throw BadInput(column_label(s) + ": inverse mass must be <= 1e150 (larger ones overflow "
                                             "double), got " + quoted(field));
        break;
    case Check::unit_interval:
        if (x < 0 || x > 1)
            throw BadInput(column_label(s) + ": " + c.what + " must lie in [0, 1], got " + quoted(field));
        break;
    case Check::non_negative:
        if (x < 0) throw BadInput(column_label(s) + ": " + c.what + " must be >= 0, got " + quoted(field));
        break;
    }
    return x;
}

// ---------------------------------------------------------------------------------------------
// The header

/// Which columns a file has, and where.
struct Layout {
    std::vector<Slot> order;                 ///< the slot of each field, in file order
    std::array<int, slot_count> field{};     ///< field index of each slot, -1 when absent
    int dim = 2;

    bool has(Slot s) const { return field[s] >= 0; }
};

Layout read_header(std::string_view line)
{
    Layout l;
    l.field.fill(-1);
    const std::vector<std::string_view> names = split(line);
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string_view name = names[i];
        if (name.empty())
            throw BadInput("header field " + std::to_string(i + 1) + " is empty (a stray comma?)");
        int found = -1;
        for (int s = 0; s < slot_count; ++s)
            if (name == columns[s].name) found = s;
        if (found < 0)
            throw BadInput("column '" + printable(name) + "': unknown column (--help lists the columns)");
        const Slot s = static_cast<Slot>(found);
        if (l.has(s))
            throw BadInput(column_label(s) + ": duplicate column (also field " +
                           std::to_string(l.field[s] + 1) + ")");
        l.field[s] = static_cast<int>(i);
        l.order.push_back(s);
    }

    // Groups: required ones complete, optional ones all or none.
    for (const Group& g : groups) {
        std::string missing;
        int present = -1;  // a present column of the group, by slot
        for (Slot s : g.slots) {
            if (l.has(s)) {
                if (present < 0) present = s;
            } else {
                if (g.required) throw BadInput(column_label(s) + ": required column missing from the header");
                missing += (missing.empty() ? "'" : ", '") + std::string(columns[s].name) + "'";
            }
        }
        if (present >= 0 && !missing.empty())
            throw BadInput(column_label(static_cast<Slot>(present)) + ": the " + g.what + " columns " +
                           group_label(g) + " come all or none; missing " + missing);
    }

    // Alternatives: at most one group of each set.
    for (const Exclusive& x : exclusive) {
        const Group* first = nullptr;
        int first_at = 0;
        for (Slot lead : x.leaders) {
            if (!l.has(lead)) continue;
            const Group* g = &group_of(lead);
            int at = l.field[lead];
            for (Slot s : g->slots) at = std::min(at, l.field[s]);
            if (!first) {
                first = g;
                first_at = at;
                continue;
            }
            const Group* earlier = at < first_at ? g : first;
            const Group* later = at < first_at ? first : g;
            Slot named = later->slots.front();
            for (Slot s : later->slots)
                if (l.field[s] < l.field[named]) named = s;
            throw BadInput(column_label(named) + ": " + x.what + " given more than one way (" +
                           group_label(*earlier) + " and " + group_label(*later) + "); " + x.hint);
        }
    }

    l.dim = l.has(vaz) ? 3 : 2;
    return l;
}

std::string output_header(int dim)
{
    return dim == 3 ? "jn,jtx,jty,jtz,vax,vay,vaz,vbx,vby,vbz,regime\n"
                    : "jn,jtx,jty,vax,vay,vbx,vby,regime\n";
}

// ---------------------------------------------------------------------------------------------
// One contact

using Values = std::array<double, slot_count>;

template <int D>
impulse::Vec<double, D> vec(const Values& v, Slot x, Slot y, Slot z)
{
    impulse::Vec<double, D> out;
    out[0] = v[x];
    out[1] = v[y];
    if constexpr (D == 3) out[2] = v[z];
    return out;
}

/// The pair's friction from whichever columns the file gives (none: frictionless).
impulse::Friction<double> friction(const Layout& l, const Values& v)
{
    if (l.has(mu)) return v[mu];
    if (l.has(mua)) return impulse::combine(v[mua], v[mub], impulse::Combine::geometric_mean);
    if (l.has(mus)) return impulse::Friction<double>(v[mus], v[muk]);
    return 0.0;
}

/// Resolves one contact and appends its output line.
template <int D>
void evaluate(const Layout& l, const Values& v, std::string& out)
{
    using V = impulse::Vec<double, D>;
    V va = vec<D>(v, vax, vay, vaz);
    V vb = vec<D>(v, vbx, vby, vbz);
    const double wA = v[wa], wB = v[wb];

    // The normal, made unit length: divided by its largest component first, so that its squared
    // length can neither overflow nor underflow, then by its length.
    V n = vec<D>(v, nx, ny, nz);
    const double big = n.cwiseAbs().maxCoeff();
    if (big == 0)
        throw BadInput(D == 3 ? "columns 'nx', 'ny', 'nz': the normal is zero (it must point from A to B)"
                              : "columns 'nx', 'ny': the normal is zero (it must point from A to B)");
    n /= big;
    n /= n.norm();

    // Impulses are about |vB - vA| / (wA + wB); keep them (and their squares) within double.
    const double k = wA + wB;
    if (k > 0 && !((vb - va).cwiseAbs().maxCoeff() <= limit * k))
        throw BadInput("the impulse |vB - vA| / (wA + wB) exceeds 1e150 (too large for double)");

    impulse::Coefficients<double> c;
    c.restitution = l.has(e) ? v[e] : 0.0;
    c.friction = friction(l, v);

    double j = 0;
    V J = V::Zero();
    impulse::Regime regime;
    if (l.has(jn)) {
        // The normal impulse was applied already: friction only, capped by the given jn.
        j = v[jn];
        const auto f = impulse::friction_impulse(va, wA, vb, wB, n, j, c.friction);
        impulse::apply_impulse(va, wA, vb, wB, f.J);
        J = f.J;
        regime = f.regime;
    } else {
        const auto r = impulse::resolve(va, wA, vb, wB, n, c);
        j = r.jn;
        J = r.Jt;
        regime = r.regime;
    }

    if (!std::isfinite(j) || !J.allFinite() || !va.allFinite() || !vb.allFinite())
        throw BadInput("the result is not a finite double (the numbers are too large)");

    put_number(out, j);
    for (int i = 0; i < D; ++i) put_number(out += ',', J[i]);
    for (int i = 0; i < D; ++i) put_number(out += ',', va[i]);
    for (int i = 0; i < D; ++i) put_number(out += ',', vb[i]);
    out += ',';
    out += impulse::to_string(regime);
    out += '\n';
}

/// Parses and resolves one data line; returns its output line.
std::string contact_line(const Layout& l, std::string_view line)
{
    const std::vector<std::string_view> fields = split(line);
    if (fields.size() != l.order.size())
        throw BadInput("expected " + std::to_string(l.order.size()) + " fields, got " +
                       std::to_string(fields.size()));
    Values v{};
    for (std::size_t i = 0; i < fields.size(); ++i) v[l.order[i]] = parse_value(fields[i], l.order[i]);
    std::string out;
    if (l.dim == 3)
        evaluate<3>(l, v, out);
    else
        evaluate<2>(l, v, out);
    return out;
}

bool skipped(std::string_view line)
{
    const std::string_view t = trim(line);
    return t.empty() || t.front() == '#';
}

}  // namespace

// ---------------------------------------------------------------------------------------------

int run(std::istream& in, const std::string& name, std::ostream& out, std::ostream& err)
{
    long line_no = 0;
    auto fail = [&](const std::string& what) {
        err << program << ": " << name << ':' << line_no << ": " << what << '\n';
        return failure;
    };

    std::optional<Layout> layout;
    std::string line;
    for (;;) {
        errno = 0;  // so that a read error's errno is the read's own
        if (!std::getline(in, line)) break;
        ++line_no;
        if (skipped(line)) continue;
        try {
            if (!layout) {
                layout = read_header(line);
                out << output_header(layout->dim);
            } else {
                out << contact_line(*layout, line);
            }
        } catch (const BadInput& bad) {
            return fail(bad.what());
        }
    }
    if (in.bad()) {
        const int code = errno;
        err << program << ": " << name << ": cannot read" << reason(code) << '\n';
        return failure;
    }
    if (!layout) {
        ++line_no;
        return fail("expected a header line naming the columns, got the end of the file");
    }
    return ok;
}

std::string version_text()
{
    return std::string(program) + ' ' + std::to_string(IMPULSE_VERSION_MAJOR) + '.' +
           std::to_string(IMPULSE_VERSION_MINOR) + '.' + std::to_string(IMPULSE_VERSION_PATCH) + '\n';
}

namespace {
const char* const usage =
    "usage: impulse-contact [FILE | -]\n"
    "       impulse-contact -h | --help | --version\n";
}  // namespace

std::string help_text()
{
    return std::string(usage) + R"(
Resolves contacts with the impulse library. Reads one contact per CSV line from FILE (standard
input when FILE is '-' or missing), computes the normal impulse with restitution, then the Coulomb
friction impulse from the velocity after it, applies both, and writes one result line per contact
as CSV to standard output.

Conventions: the normal n points from body A to body B; an impulse J acts on B as +J and on A
as -J (vA -= wA*J, vB += wB*J); w is an inverse mass, 0 for an immovable body.

INPUT
  A header line names the columns, in any order (spaces around names are ignored), then one
  contact per line. Blank lines and lines starting with '#' are skipped, also before the header.

  required  vax,vay     velocity of A
            wa          inverse mass of A (>= 0; 0 = immovable)
            vbx,vby     velocity of B
            wb          inverse mass of B (>= 0)
            nx,ny       normal from A to B, any length but zero: the tool divides it by its
                        largest component, then by its length
  3D        vaz,vbz,nz  all three or none; with them the file is 3D
  optional  e           restitution in [0, 1] (default 0)
            mu          friction coefficient of the pair (default 0), or instead
            mua,mub     each body's coefficient, mixed as sqrt(mua*mub), or instead
            mus,muk     static and kinetic coefficients: sticks while the impulse that stops
                        the slide is <= mus*jn, else slides with |friction| = muk*jn
            jn          the normal impulse, already applied: the velocities are those after
                        it, and only friction is computed (not together with e)

  Numbers are decimals as C++'s std::from_chars reads them (1, -0.5, 2.5e-3), optionally with a
  leading '+'; NaN and infinities are rejected. So that nothing overflows double, velocities and
  inverse masses must lie within +-1e150, and impulses, |vB - vA| / (wA + wB), below 1e150.

OUTPUT
  2D  jn,jtx,jty,vax,vay,vbx,vby,regime
  3D  jn,jtx,jty,jtz,vax,vay,vaz,vbx,vby,vbz,regime

  jn is the normal impulse (computed, or as given), (jtx,jty[,jtz]) the friction impulse applied
  to B (A receives its negative), va and vb the velocities after the contact, and regime one of
    separating  not approaching: nothing changed
    sticking    friction stopped the slide
    sliding     friction was capped at mu*jn and only slowed the slide
    immovable   both inverse masses are 0: nothing changed
  Numbers are printed in the shortest form that reads back to exactly the same double (so a
  zero may read -0).

ERRORS
  The first bad line stops the run with one message on standard error, naming the file
  (<stdin> for standard input), the line and the column:
    impulse-contact: contacts.csv:7: column 'nx': expected a number, got "abc"
    impulse-contact: contacts.csv:9: expected 8 fields, got 7
  Each line is checked completely before its result is printed, so all output before the
  error is valid. Exit status: 0 on success, 2 on bad input, an unreadable file or bad usage.

EXAMPLE
  The crate trace: a crate (wb = 0.5) slides at 3 on a static floor right after a normal
  impulse of 4; mu = 0.5 caps friction at 0.5*4 = 2, so the crate slows from 3 to 2.
    $ cat crate.csv
    vax,vay,wa,vbx,vby,wb,nx,ny,mu,jn
    0,0,0,3,0,0.5,0,1,0.5,4
    $ impulse-contact crate.csv
    jn,jtx,jty,vax,vay,vbx,vby,regime
    4,-2,0,0,0,2,0,sliding
)";
}

int cli(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err)
{
    const std::string* file = nullptr;
    bool options_done = false;
    for (const std::string& a : args) {
        if (!options_done && (a == "--help" || a == "-h")) {
            out << help_text();
            return ok;
        }
        if (!options_done && a == "--version") {
            out << version_text();
            return ok;
        }
        if (!options_done && a == "--") {
            options_done = true;
            continue;
        }
        if (!options_done && a.size() > 1 && a[0] == '-') {
            err << program << ": unknown option '" << printable(a) << "'\n" << usage;
            return failure;
        }
        if (file) {
            err << program << ": one input file at most, got '" << printable(*file) << "' and '"
                << printable(a) << "'\n" << usage;
            return failure;
        }
        file = &a;
    }

    int status;
    if (!file || *file == "-") {
        status = run(in, "<stdin>", out, err);
    } else {
        errno = 0;
        std::ifstream f(*file, std::ios::binary);
        if (!f) {
            const int code = errno;
            err << program << ": " << *file << ": cannot open" << reason(code) << '\n';
            return failure;
        }
        status = run(f, *file, out, err);
    }
    if (!out.flush() && status == ok) {
        err << program << ": cannot write the output\n";
        return failure;
    }
    return status;
}

}  // namespace impulse_contact
