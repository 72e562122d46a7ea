// SPDX-License-Identifier: MIT
// impulse-contact: the CSV reader, the per-contact evaluation and the writer.
//
// Columns are described by three tables: `columns` (every name the tool knows, how its value is
// checked, and whether it belongs to 2D files, 3D files or both), `groups` (columns that come
// together: required, or all or none), and `exclusive` (groups of which at most one may be given).
// A group lists the columns of both dimensions (the angular velocity of A is `oma` in 2D and
// `omax,omay,omaz` in 3D); only those of the file's dimension count. Adding a column means: a
// Slot, a row in `columns`, a place in a row of `groups` (and in `exclusive` if it replaces
// something), and its use in `evaluate`.
#include "csv_contacts.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <type_traits>

#include <Eigen/Eigenvalues>
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
    // Rigid bodies: each quantity optional, a missing one leaves that body a point mass.
    oma, omb,                                // 2D angular velocities (counter-clockwise positive)
    omax, omay, omaz, ombx, omby, ombz,      // 3D angular velocities
    ia, ib,                                  // 2D inverse moments of inertia
    iaxx, iayy, iazz, iaxy, iaxz, iayz,      // 3D world inverse inertia of A: the upper triangle
    ibxx, ibyy, ibzz, ibxy, ibxz, ibyz,      // and of B
    rax, ray, raz, rbx, rby, rbz,            // contact point minus each centre of mass
    slot_count
};

/// The largest contact offset the tool accepts: (r x d).I^-1 (r x d) must stay finite for inverse
/// inertias up to `limit`, so |r|^2 * limit well below double's largest value.
constexpr double offset_limit = 1e50;

/// What a value must satisfy besides being a finite number.
enum class Check {
    any,                   ///< any finite number (normal components)
    bounded,               ///< |x| <= limit (velocities, angular velocities, off-diagonal inertia)
    offset,                ///< |x| <= offset_limit
    non_negative_bounded,  ///< 0 <= x <= limit (inverse mass, inverse inertia, its diagonal)
    unit_interval,         ///< 0 <= x <= 1 (restitution)
    non_negative,          ///< x >= 0 (friction coefficients, normal impulse)
};

struct Column {
    const char* name;
    Check check;
    const char* what;   ///< what the value is, for messages
    int dim;            ///< the files it belongs to: 2 or 3 (that dimension only), 0 (both)
    bool rigid;         ///< a rigid-body column: with any of them, angular velocities are printed
    const char* other;  ///< the same quantity's columns in the other dimension, for messages
};

/// Indexed by Slot.
const std::array<Column, slot_count> columns = {{
    {"vax", Check::bounded, "velocity", 0, false, nullptr},
    {"vay", Check::bounded, "velocity", 0, false, nullptr},
    {"vaz", Check::bounded, "velocity", 3, false, nullptr},
    {"wa", Check::non_negative_bounded, "inverse mass", 0, false, nullptr},
    {"vbx", Check::bounded, "velocity", 0, false, nullptr},
    {"vby", Check::bounded, "velocity", 0, false, nullptr},
    {"vbz", Check::bounded, "velocity", 3, false, nullptr},
    {"wb", Check::non_negative_bounded, "inverse mass", 0, false, nullptr},
    {"nx", Check::any, "normal", 0, false, nullptr},
    {"ny", Check::any, "normal", 0, false, nullptr},
    {"nz", Check::any, "normal", 3, false, nullptr},
    {"e", Check::unit_interval, "restitution", 0, false, nullptr},
    {"mu", Check::non_negative, "friction coefficient", 0, false, nullptr},
    {"mua", Check::non_negative, "friction coefficient", 0, false, nullptr},
    {"mub", Check::non_negative, "friction coefficient", 0, false, nullptr},
    {"mus", Check::non_negative, "friction coefficient", 0, false, nullptr},
    {"muk", Check::non_negative, "friction coefficient", 0, false, nullptr},
    {"jn", Check::non_negative, "normal impulse", 0, false, nullptr},
    {"oma", Check::bounded, "angular velocity", 2, true, "omax,omay,omaz"},
    {"omb", Check::bounded, "angular velocity", 2, true, "ombx,omby,ombz"},
    {"omax", Check::bounded, "angular velocity", 3, true, "oma"},
    {"omay", Check::bounded, "angular velocity", 3, true, "oma"},
    {"omaz", Check::bounded, "angular velocity", 3, true, "oma"},
    {"ombx", Check::bounded, "angular velocity", 3, true, "omb"},
    {"omby", Check::bounded, "angular velocity", 3, true, "omb"},
    {"ombz", Check::bounded, "angular velocity", 3, true, "omb"},
    {"ia", Check::non_negative_bounded, "inverse inertia", 2, true, "iaxx,iayy,iazz,iaxy,iaxz,iayz"},
    {"ib", Check::non_negative_bounded, "inverse inertia", 2, true, "ibxx,ibyy,ibzz,ibxy,ibxz,ibyz"},
    {"iaxx", Check::non_negative_bounded, "inverse inertia", 3, true, "ia"},
    {"iayy", Check::non_negative_bounded, "inverse inertia", 3, true, "ia"},
    {"iazz", Check::non_negative_bounded, "inverse inertia", 3, true, "ia"},
    {"iaxy", Check::bounded, "inverse inertia", 3, true, "ia"},
    {"iaxz", Check::bounded, "inverse inertia", 3, true, "ia"},
    {"iayz", Check::bounded, "inverse inertia", 3, true, "ia"},
    {"ibxx", Check::non_negative_bounded, "inverse inertia", 3, true, "ib"},
    {"ibyy", Check::non_negative_bounded, "inverse inertia", 3, true, "ib"},
    {"ibzz", Check::non_negative_bounded, "inverse inertia", 3, true, "ib"},
    {"ibxy", Check::bounded, "inverse inertia", 3, true, "ib"},
    {"ibxz", Check::bounded, "inverse inertia", 3, true, "ib"},
    {"ibyz", Check::bounded, "inverse inertia", 3, true, "ib"},
    {"rax", Check::offset, "offset", 0, true, nullptr},
    {"ray", Check::offset, "offset", 0, true, nullptr},
    {"raz", Check::offset, "offset", 3, true, nullptr},
    {"rbx", Check::offset, "offset", 0, true, nullptr},
    {"rby", Check::offset, "offset", 0, true, nullptr},
    {"rbz", Check::offset, "offset", 3, true, nullptr},
}};

/// Whether column s belongs in a file of dimension dim.
bool belongs(Slot s, int dim) { return columns[s].dim == 0 || columns[s].dim == dim; }

/// Columns that belong together. A required group needs every column; an optional one all or
/// none. Only the columns that belong to the file's dimension count.
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
    // Rigid bodies: one group per quantity and body, so that each body gives only what it has
    // (a point-mass ball striking a rod needs only the rod's columns).
    {"angular velocity of A", {oma, omax, omay, omaz}, false},
    {"angular velocity of B", {omb, ombx, omby, ombz}, false},
    {"inverse inertia of A", {ia, iaxx, iayy, iazz, iaxy, iaxz, iayz}, false},
    {"inverse inertia of B", {ib, ibxx, ibyy, ibzz, ibxy, ibxz, ibyz}, false},
    {"offset of A", {rax, ray, raz}, false},
    {"offset of B", {rbx, rby, rbz}, false},
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

/// Splits a line at its commas into `fields`, each trimmed, keeping the first `keep` and only
/// counting the rest; returns how many fields the line has. So a line of many commas takes no
/// more memory than one of `keep` fields.
std::size_t split(std::string_view line, std::size_t keep, std::vector<std::string_view>& fields)
{
    fields.clear();
    for (;;) {
        if (fields.size() == keep)  // the rest is counted: one field more than it has commas
            return keep + 1 + static_cast<std::size_t>(std::count(line.begin(), line.end(), ','));
        const std::size_t comma = line.find(',');
        fields.push_back(trim(line.substr(0, comma)));
        if (comma == std::string_view::npos) return fields.size();
        line.remove_prefix(comma + 1);
    }
}

/// `s` made safe to print in a message: the quotes ' and " and the backslash escaped with a
/// backslash, control bytes and bytes outside ASCII as \xHH; text beyond `max_shown` bytes is
/// cut and "..." appended.
std::string escaped(std::string_view s, std::size_t max_shown = std::string_view::npos)
{
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

/// A text from the input or the command line, escaped and cut at 40 bytes for a message.
std::string printable(std::string_view s) { return escaped(s, 40); }

std::string quoted(std::string_view s) { return '"' + printable(s) + '"'; }

/// ": <the system's words for errno code>", or nothing when there is no code.
std::string reason(int code) { return code ? std::string(": ") + std::strerror(code) : std::string(); }

std::string column_label(Slot s) { return std::string("column '") + columns[s].name + "'"; }

/// "'mua,mub'": columns, for messages.
std::string group_label(const std::vector<Slot>& slots)
{
    std::string out = "'";
    for (std::size_t i = 0; i < slots.size(); ++i) {
        if (i) out += ',';
        out += columns[slots[i]].name;
    }
    return out + "'";
}

/// "columns 'iaxx', 'iayy'": several columns, for messages about their values together.
std::string columns_label(const std::vector<Slot>& slots)
{
    std::string out = "columns ";
    for (std::size_t i = 0; i < slots.size(); ++i)
        out += (i ? ", '" : "'") + std::string(columns[slots[i]].name) + "'";
    return out;
}

/// The group's columns that belong to files of dimension dim.
std::vector<Slot> in_dimension(const Group& g, int dim)
{
    std::vector<Slot> out;
    for (Slot s : g.slots)
        if (belongs(s, dim)) out.push_back(s);
    return out;
}

/// Appends x in the shortest form that reads back to the same double.
void put_number(std::string& out, double x)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    out.append(buf, r.ptr);
}

/// Whether a decimal that std::from_chars found out of double's range is tiny (it underflows)
/// rather than huge (it overflows): whether its value, d.ddd * 10^p, has p < 0. `t` is the whole
/// number: an optional '-', digits with an optional '.', an optional exponent.
bool underflows(std::string_view t)
{
    std::size_t i = !t.empty() && t[0] == '-' ? 1 : 0;
    // p = (digits before the '.') - 1 - (zeros before the first nonzero digit) + exponent.
    long long before = 0, zeros = 0;
    bool nonzero = false, point = false;
    for (; i < t.size() && t[i] != 'e' && t[i] != 'E'; ++i) {
        if (t[i] == '.') {
            point = true;
            continue;
        }
        if (!point) ++before;
        if (t[i] != '0') nonzero = true;
        if (!nonzero) ++zeros;
    }
    long long exponent = 0;
    if (i < t.size()) {
        ++i;  // the 'e'
        const bool negative = i < t.size() && t[i] == '-';
        if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
        for (; i < t.size() && exponent < 1000000000000000; ++i) exponent = 10 * exponent + (t[i] - '0');
        if (negative) exponent = -exponent;
    }
    return before - 1 - zeros + exponent < 0;
}

/// Reads one field as a finite double and checks it against its column's rule. The whole field
/// must be the number; a leading '+' is accepted. A nonzero number below double's smallest
/// normal number (2.2250738585072014e-308) in magnitude is refused as underflowing: double
/// holds it with fewer significant digits, or as 0, so its value would change unseen.
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
    const bool out_of_range = r.ec == std::errc::result_out_of_range;
    if (out_of_range && !underflows(t))
        throw BadInput(column_label(s) + ": expected a number within the range of double, got " +
                       quoted(field));
    if (out_of_range || (x != 0 && std::fabs(x) < std::numeric_limits<double>::min()))
        throw BadInput(column_label(s) + ": the number underflows double (a nonzero magnitude below "
                                         "2.2250738585072014e-308 keeps fewer digits, or none), got " +
                       quoted(field));
    if (!std::isfinite(x))
        throw BadInput(column_label(s) + ": expected a finite number, got " + quoted(field));

    const Column& c = columns[s];
    switch (c.check) {
    case Check::any: break;
    case Check::bounded:
        if (!(std::fabs(x) <= limit))
            throw BadInput(column_label(s) + ": " + c.what + " must lie within +-1e150 (larger ones overflow "
                                             "double), got " + quoted(field));
        break;
    case Check::offset:
        if (!(std::fabs(x) <= offset_limit))
            throw BadInput(column_label(s) + ": " + c.what + " must lie within +-1e50 (larger ones overflow "
                                             "double), got " + quoted(field));
        break;
    case Check::non_negative_bounded:
        if (x < 0) throw BadInput(column_label(s) + ": " + c.what + " must be >= 0, got " + quoted(field));
        if (x > limit)
            throw BadInput(column_label(s) + ": " + c.what + " must be <= 1e150 (larger ones overflow "
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
    bool rigid = false;                      ///< any rigid-body column: angular velocities are printed

    bool has(Slot s) const { return field[s] >= 0; }
};

Layout read_header(std::string_view line, const Options& options)
{
    Layout l;
    l.field.fill(-1);
    // Of more names than there are columns, one of the first slot_count + 1 is empty, unknown or
    // a duplicate, and the loop below stops there: the names after them are never needed.
    std::vector<std::string_view> names;
    split(line, slot_count + 1, names);
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
        l.rigid = l.rigid || columns[s].rigid;
    }
    // Any of the 3D columns makes the file 3D (the group check below wants all three).
    l.dim = l.has(vaz) || l.has(vbz) || l.has(nz) ? 3 : 2;

    // Groups: required ones complete, optional ones all or none (counting the columns of the
    // file's dimension only).
    for (const Group& g : groups) {
        const std::vector<Slot> slots = in_dimension(g, l.dim);
        std::string missing;
        int present = -1;  // a present column of the group, by slot
        for (Slot s : slots) {
            if (l.has(s)) {
                if (present < 0) present = s;
            } else {
                if (g.required) throw BadInput(column_label(s) + ": required column missing from the header");
                missing += (missing.empty() ? "'" : ", '") + std::string(columns[s].name) + "'";
            }
        }
        if (present >= 0 && !missing.empty())
            throw BadInput(column_label(static_cast<Slot>(present)) + ": the " + g.what + " columns " +
                           group_label(slots) + " come all or none; missing " + missing);
    }

    // Columns of the other dimension (oma in a 3D file, omaz in a 2D one), first in file order.
    for (Slot s : l.order) {
        if (belongs(s, l.dim)) continue;
        const Column& c = columns[s];
        std::string what = column_label(s);
        what += c.dim == 2 ? ": a 2D column, but the file is 3D (it has 'vaz,vbz,nz')"
                           : ": a 3D column, but the file is 2D (it has no 'vaz,vbz,nz')";
        if (c.other) what += std::string("; in ") + (c.dim == 2 ? "3D" : "2D") + " give '" + c.other + "'";
        throw BadInput(what);
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
                           group_label(earlier->slots) + " and " + group_label(later->slots) + "); " + x.hint);
        }
    }

    // The coupled solve computes the normal impulse together with friction: it cannot take one.
    if (options.coupled && l.has(jn))
        throw BadInput(column_label(jn) + ": --coupled computes the normal impulse together with friction, so "
                                          "it cannot be given; drop the column or --coupled");
    return l;
}

std::string output_header(const Layout& l)
{
    if (l.dim == 3)
        return l.rigid ? "jn,jtx,jty,jtz,vax,vay,vaz,vbx,vby,vbz,omax,omay,omaz,ombx,omby,ombz,regime\n"
                       : "jn,jtx,jty,jtz,vax,vay,vaz,vbx,vby,vbz,regime\n";
    return l.rigid ? "jn,jtx,jty,vax,vay,vbx,vby,oma,omb,regime\n" : "jn,jtx,jty,vax,vay,vbx,vby,regime\n";
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

/// What one contact did: the numbers of its output line.
template <int D>
struct Outcome {
    using V = impulse::Vec<double, D>;
    double jn = 0;                     ///< normal impulse
    V J = V::Zero();                   ///< friction impulse on B
    V va = V::Zero(), vb = V::Zero();  ///< velocities after the contact
    impulse::Angular<double, D> oma = impulse::Rotation<double, D>::zero_angular();  ///< A's spin after
    impulse::Angular<double, D> omb = impulse::Rotation<double, D>::zero_angular();  ///< B's spin after
    impulse::Regime regime = impulse::Regime::separating;

    bool finite() const
    {
        using std::isfinite;
        if constexpr (D == 2) {
            if (!isfinite(oma) || !isfinite(omb)) return false;
        } else {
            if (!oma.allFinite() || !omb.allFinite()) return false;
        }
        return isfinite(jn) && J.allFinite() && va.allFinite() && vb.allFinite();
    }
};

/// A point-mass contact, exactly as before rigid bodies existed (files without rigid columns).
template <int D>
Outcome<D> resolve_points(const Layout& l, const Values& v, const impulse::Vec<double, D>& n,
                          const impulse::Coefficients<double>& c)
{
    Outcome<D> o;
    o.va = vec<D>(v, vax, vay, vaz);
    o.vb = vec<D>(v, vbx, vby, vbz);
    const double inv_mass_a = v[wa], inv_mass_b = v[wb];

    // Impulses are about |vB - vA| / (wA + wB); keep them (and their squares) within double.
    const double k = inv_mass_a + inv_mass_b;
    if (k > 0 && !((o.vb - o.va).cwiseAbs().maxCoeff() <= limit * k))
        throw BadInput("the impulse |vB - vA| / (wA + wB) exceeds 1e150 (too large for double)");

    if (l.has(jn)) {
        // The normal impulse was applied already: friction only, capped by the given jn.
        o.jn = v[jn];
        const auto f = impulse::friction_impulse(o.va, inv_mass_a, o.vb, inv_mass_b, n, o.jn, c.friction);
        impulse::apply_impulse(o.va, inv_mass_a, o.vb, inv_mass_b, f.J);
        o.J = f.J;
        o.regime = f.regime;
    } else {
        const auto r = impulse::resolve(o.va, inv_mass_a, o.vb, inv_mass_b, n, c);
        o.jn = r.jn;
        o.J = r.friction_impulse;
        o.regime = r.regime;
    }
    return o;
}

/// The world inverse inertia from its six columns (the upper triangle; the tensor is symmetric).
Eigen::Matrix3d tensor(const Values& v, Slot xx, Slot yy, Slot zz, Slot xy, Slot xz, Slot yz)
{
    Eigen::Matrix3d I;
    I << v[xx], v[xy], v[xz],
         v[xy], v[yy], v[yz],
         v[xz], v[yz], v[zz];
    return I;
}

/// How far below 0 an eigenvalue of a 3D inverse inertia may lie, relative to the largest
/// |eigenvalue|: rounding of a tensor computed as R diag(1/I) R^T in double and printed with 12 or
/// more significant digits stays within it (each entry off by < 1e-11 of the largest, so every
/// eigenvalue by < 3e-11 of it).
constexpr double psd_tolerance = 1e-10;

/// An inverse inertia must be positive semi-definite (no direction in which an impulse would spin
/// the body backwards): its diagonal is >= 0 (checked per column) and here its eigenvalues.
void check_inverse_inertia(const Eigen::Matrix3d& I, const char* body, const std::vector<Slot>& slots)
{
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(I, Eigen::EigenvaluesOnly);
    const Eigen::Vector3d lambda = solver.eigenvalues();  // ascending
    const double largest = lambda.cwiseAbs().maxCoeff();
    if (!(lambda[0] >= -psd_tolerance * largest)) {
        char low[32];
        std::snprintf(low, sizeof low, "%.6g", lambda[0]);
        throw BadInput(columns_label(slots) + ": the inverse inertia of " + body +
                       " is not positive semi-definite: its smallest eigenvalue is " + low +
                       " (none may lie below -1e-10 times the largest)");
    }
}

/// A contact between rigid bodies (any rigid column, or --coupled): impulse::resolve or
/// impulse::resolve_coupled on the bodies the columns describe, missing quantities left at zero
/// (a point mass: no spin, no inverse inertia, the contact at the centre of mass).
template <int D>
Outcome<D> resolve_rigid(const Layout& l, const Values& v, const impulse::Vec<double, D>& n,
                         const impulse::Coefficients<double>& c, const Options& options)
{
    using V = impulse::Vec<double, D>;
    impulse::RigidBody<double, D> A, B;
    A.v = vec<D>(v, vax, vay, vaz);
    B.v = vec<D>(v, vbx, vby, vbz);
    A.inv_mass = v[wa];
    B.inv_mass = v[wb];
    const V rA = vec<D>(v, rax, ray, raz);
    const V rB = vec<D>(v, rbx, rby, rbz);
    if constexpr (D == 2) {
        A.omega = v[oma];
        B.omega = v[omb];
        A.inv_inertia = v[ia];
        B.inv_inertia = v[ib];
    } else {
        A.omega = vec<3>(v, omax, omay, omaz);
        B.omega = vec<3>(v, ombx, omby, ombz);
        A.inv_inertia = tensor(v, iaxx, iayy, iazz, iaxy, iaxz, iayz);
        B.inv_inertia = tensor(v, ibxx, ibyy, ibzz, ibxy, ibxz, ibyz);
        check_inverse_inertia(A.inv_inertia, "A", {iaxx, iayy, iazz, iaxy, iaxz, iayz});
        check_inverse_inertia(B.inv_inertia, "B", {ibxx, ibyy, ibzz, ibxy, ibxz, ibyz});
    }
    const impulse::RigidContact<double, D> contact(A, rA, B, rB);

    // As for point masses, with the contact point's relative velocity rv (vB - vA without rotation).
    const double k = A.inv_mass + B.inv_mass;
    if (k > 0 && !(contact.relative_velocity().cwiseAbs().maxCoeff() <= limit * k))
        throw BadInput(l.rigid ? "the impulse |rv| / (wA + wB) exceeds 1e150 (too large for double; rv is the "
                                 "contact point's relative velocity)"
                               : "the impulse |vB - vA| / (wA + wB) exceeds 1e150 (too large for double)");

    Outcome<D> o;
    if (l.has(jn)) {
        // The normal impulse was applied already: friction only, capped by the given jn. Nothing
        // at the contact can move when no impulse changes its velocity (the matrix K of velocity
        // change per unit impulse is zero).
        o.jn = v[jn];
        if (contact.inverse_mass_matrix().isZero(0)) {
            o.regime = impulse::Regime::immovable;
        } else {
            const auto f = impulse::friction_impulse(contact, contact.relative_velocity(), n, o.jn, c.friction);
            contact.apply(f.J);
            o.J = f.J;
            o.regime = f.regime;
        }
    } else {
        const auto r =
            options.coupled ? impulse::resolve_coupled(contact, n, c) : impulse::resolve(contact, n, c);
        o.jn = r.jn;
        o.J = r.friction_impulse;
        o.regime = r.regime;
    }
    o.va = A.v;
    o.vb = B.v;
    o.oma = A.omega;
    o.omb = B.omega;
    return o;
}

template <class T>
void put_angular(std::string& out, const T& omega)
{
    if constexpr (std::is_floating_point_v<T>) {
        put_number(out += ',', omega);
    } else {
        for (int i = 0; i < 3; ++i) put_number(out += ',', omega[i]);
    }
}

/// Resolves one contact and appends its output line.
template <int D>
void evaluate(const Layout& l, const Values& v, const Options& options, std::string& out)
{
    using V = impulse::Vec<double, D>;

    // The normal, made unit length: divided by its largest component first, so that its squared
    // length can neither overflow nor underflow, then by its length.
    V n = vec<D>(v, nx, ny, nz);
    const double big = n.cwiseAbs().maxCoeff();
    if (big == 0)
        throw BadInput(D == 3 ? "columns 'nx', 'ny', 'nz': the normal is zero (it must point from A to B)"
                              : "columns 'nx', 'ny': the normal is zero (it must point from A to B)");
    n /= big;
    n /= n.norm();

    impulse::Coefficients<double> c;
    c.restitution = l.has(e) ? v[e] : 0.0;
    c.friction = friction(l, v);

    const Outcome<D> o = l.rigid || options.coupled ? resolve_rigid<D>(l, v, n, c, options)
                                                    : resolve_points<D>(l, v, n, c);
    if (!o.finite()) throw BadInput("the result is not a finite double (the numbers are too large)");

    put_number(out, o.jn);
    for (int i = 0; i < D; ++i) put_number(out += ',', o.J[i]);
    for (int i = 0; i < D; ++i) put_number(out += ',', o.va[i]);
    for (int i = 0; i < D; ++i) put_number(out += ',', o.vb[i]);
    if (l.rigid) {
        put_angular(out, o.oma);
        put_angular(out, o.omb);
    }
    out += ',';
    out += impulse::to_string(o.regime);
    out += '\n';
}

/// Parses and resolves one data line; returns its output line.
std::string contact_line(const Layout& l, const Options& options, std::string_view line)
{
    std::vector<std::string_view> fields;
    const std::size_t count = split(line, l.order.size(), fields);
    if (count != l.order.size())
        throw BadInput("expected " + std::to_string(l.order.size()) + " fields, got " + std::to_string(count));
    Values v{};  // columns not in the file stay 0
    for (std::size_t i = 0; i < fields.size(); ++i) v[l.order[i]] = parse_value(fields[i], l.order[i]);
    std::string out;
    if (l.dim == 3)
        evaluate<3>(l, v, options, out);
    else
        evaluate<2>(l, v, options, out);
    return out;
}

bool comment(std::string_view line)
{
    const std::string_view t = trim(line);
    return !t.empty() && t.front() == '#';
}

bool skipped(std::string_view line) { return comment(line) || trim(line).empty(); }

/// The UTF-8 byte-order mark some programs (spreadsheets, PowerShell) write before the text.
constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";

/// Reports that `out` took no more: `failure`. `code` is the failed write's errno, or 0.
int cannot_write(std::ostream& err, int code)
{
    err << program << ": cannot write the output" << reason(code) << '\n';
    return failure;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

int run(std::istream& in, const std::string& name, std::ostream& out, std::ostream& err, const Options& options)
{
    const std::string shown = escaped(name);
    long line_no = 0;
    std::string problem;  // the message that stops the run, after "impulse-contact: "
    int write_code = -1;  // errno of the first failed write; -1 while none failed

    // Writes text to out; false when out took it no more.
    auto put = [&](const std::string& text) {
        errno = 0;
        if (out << text) return true;
        write_code = errno;
        return false;
    };

    // One line at a time into a buffer of options.max_line bytes (and getline's closing NUL).
    const std::size_t max_line = std::max<std::size_t>(options.max_line, 1);
    const std::unique_ptr<char[]> buffer(new char[max_line + 1]);
    std::optional<Layout> layout;
    for (;;) {
        errno = 0;  // so that an error's errno is the read's own (or the tied flush's)
        in.getline(buffer.get(), static_cast<std::streamsize>(max_line + 1));
        const std::size_t got = static_cast<std::size_t>(in.gcount());  // with the '\n', if read
        if (!out) {  // an output tied to the input (std::cin's std::cout) is flushed by the read
            write_code = errno;
            break;
        }
        if (in.bad()) {
            problem = shown + ": cannot read" + reason(errno);
            break;
        }
        if (in.fail() && got == 0) break;  // the end of the input
        const bool too_long = in.fail();    // max_line bytes and no line end yet
        const bool ended = !too_long && !in.eof();
        std::string_view line(buffer.get(), ended ? got - 1 : got);
        ++line_no;
        if (line_no == 1 && line.substr(0, byte_order_mark.size()) == byte_order_mark)
            line.remove_prefix(byte_order_mark.size());
        if (too_long) {
            if (!comment(line)) {
                problem = shown + ':' + std::to_string(line_no) + ": the line is longer than " +
                          std::to_string(max_line) + " bytes, the limit for a line that is not a comment";
                break;
            }
            in.clear();
            errno = 0;
            in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');  // the rest of the comment
            if (in.bad()) {
                problem = shown + ": cannot read" + reason(errno);
                break;
            }
            continue;
        }
        if (skipped(line)) continue;
        try {
            if (!layout) {
                layout = read_header(line, options);
                if (!put(output_header(*layout))) break;
            } else {
                if (!put(contact_line(*layout, options, line))) break;
            }
        } catch (const BadInput& bad) {
            problem = shown + ':' + std::to_string(line_no) + ": " + bad.what();
            break;
        }
    }
    if (!layout && problem.empty() && write_code < 0) {
        problem = shown + ':' + std::to_string(line_no + 1) +
                  ": expected a header line naming the columns, got the end of the file";
    }

    // What was written reaches its destination before any message.
    if (write_code < 0) {
        errno = 0;
        if (!out.flush()) write_code = errno;
    }
    if (!problem.empty()) err << program << ": " << problem << '\n';
    if (write_code >= 0) return cannot_write(err, write_code);
    return problem.empty() ? ok : failure;
}

std::string version_text()
{
    return std::string(program) + ' ' + std::to_string(IMPULSE_VERSION_MAJOR) + '.' +
           std::to_string(IMPULSE_VERSION_MINOR) + '.' + std::to_string(IMPULSE_VERSION_PATCH) + '\n';
}

namespace {
const char* const usage =
    "usage: impulse-contact [--coupled] [FILE | -]\n"
    "       impulse-contact -h | --help | --version\n";
}  // namespace

std::string help_text()
{
    return std::string(usage) + R"(
Resolves contacts with the impulse library. Reads one contact per CSV line from FILE (standard
input when FILE is '-' or missing), computes the normal impulse with restitution, then the Coulomb
friction impulse from the velocity after it, applies both, and writes one result line per contact
as CSV to standard output. Bodies are point masses, or rigid bodies that spin when the optional
rigid-body columns are given.

Conventions: the normal n points from body A to body B; an impulse J acts on B as +J and on A
as -J (vA -= wA*J, vB += wB*J); w is an inverse mass, 0 for an immovable body.

OPTIONS
  --coupled   solve normal and friction together (impulse::resolve_coupled) instead of one after
              the other (impulse::resolve), in 2D and 3D: the normal speed becomes exactly -e*vn
              and, inside the friction cone, the slide stops, even where rotation couples the two
              (an off-centre hit); outside the cone friction takes the cone's edge. It computes
              the normal impulse itself, so a 'jn' column is an error with it. Without rotation
              both ways give the same result (to rounding).

INPUT
  A header line names the columns, in any order (spaces around names are ignored), then one
  contact per line. Blank lines and lines starting with '#' are skipped, also before the header.
  A UTF-8 byte-order mark at the start of the input is skipped. A line may be at most 65536
  bytes long (a comment may be longer).

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
                        it, and only friction is computed (not together with e or --coupled)

  Rigid bodies (optional): the contact point moves with each body's spin, and an impulse there
  turns the body. Each quantity below, for each body, may be given or left out; left out, it is
  zero, which is a point mass (no spin, no inverse inertia, the contact at the centre of mass).
  So a point-mass ball striking a rod needs only the rod's columns.
    2D      oma         angular velocity of A (counter-clockwise positive); omb for B
            ia          inverse moment of inertia of A (>= 0; 0 = cannot be spun); ib for B
    3D      omax,omay,omaz                 angular velocity of A; ombx,omby,ombz for B
            iaxx,iayy,iazz,iaxy,iaxz,iayz  A's inverse inertia tensor in world axes, given by
                                           its upper triangle (it is symmetric); ibxx,... for B
    both    rax,ray     offset of the contact point from A's centre of mass (3D: rax,ray,raz);
                        rbx,rby from B's (3D: rbx,rby,rbz)
  A quantity's columns come all or none: 'rax' without 'ray' is an error, and so are five of
  the six tensor columns. 2D columns (oma, ia, ...) in a 3D file and 3D ones (omaz, raz, iaxx,
  ...) in a 2D file are errors. A 3D inverse inertia must be positive semi-definite: its
  diagonal >= 0 and no eigenvalue below -1e-10 times the largest (room for the rounding of a
  tensor computed as R diag(1/I) R^T in double and printed with 12 or more significant digits).

  Numbers are decimals as C++'s std::from_chars reads them (1, -0.5, 2.5e-3), optionally with a
  leading '+'. NaN, infinities and numbers beyond double's range are rejected, and so are
  nonzero numbers smaller in magnitude than 2.2250738585072014e-308, double's smallest normal
  number: they underflow (double keeps fewer of their digits, or none; write 0 for zero), so
  every number read is within double's relative precision, 2^-53, of what was written. So that
  nothing overflows double, velocities, angular velocities, inverse masses and inverse
  inertias must lie within +-1e150, offsets within +-1e50, and impulses, |rv| / (wA + wB),
  below 1e150 (rv is the relative velocity of the contact point: vB - vA for point masses).

OUTPUT
  2D  jn,jtx,jty,vax,vay,vbx,vby,regime
  3D  jn,jtx,jty,jtz,vax,vay,vaz,vbx,vby,vbz,regime
  With any rigid-body column, the angular velocities after the contact follow the velocities
  (the point-mass columns keep their places, and regime stays last):
  2D  jn,jtx,jty,vax,vay,vbx,vby,oma,omb,regime
  3D  jn,jtx,jty,jtz,vax,vay,vaz,vbx,vby,vbz,omax,omay,omaz,ombx,omby,ombz,regime

  jn is the normal impulse (computed, or as given), (jtx,jty[,jtz]) the friction impulse applied
  to B (A receives its negative), va and vb the velocities after the contact, om the angular
  velocities after it, and regime one of
    separating  not approaching: nothing changed
    sticking    friction stopped the slide
    sliding     friction was capped at mu*jn and only slowed the slide
    immovable   no impulse at the contact can move the bodies (both inverse masses are 0, and
                no inverse inertia turns it into spin): nothing changed
  Numbers are printed in the shortest form that reads back to exactly the same double (so a
  zero may read -0).

ERRORS
  The first bad line stops the run with one message on standard error, naming the file
  (<stdin> for standard input), the line and the column:
    impulse-contact: contacts.csv:7: column 'nx': expected a number, got "abc"
    impulse-contact: contacts.csv:9: expected 8 fields, got 7
    impulse-contact: contacts.csv:4: column 'ia': inverse inertia must be >= 0, got "-1"
  Each line is checked completely before its result is printed, so all output before the
  error is valid. File names and text from the input are shown escaped: \, ' and " with a
  backslash, control bytes and bytes outside ASCII as \xHH.
  Output that cannot be written (a full disk, a closed pipe, also with SIGPIPE ignored) stops
  the run at the first failed write, with the message
    impulse-contact: cannot write the output: No space left on device
  Exit status: 0 on success, 2 on bad input, an unreadable file, bad usage or a write error.

EXAMPLES
  The crate trace: a crate (wb = 0.5) slides at 3 on a static floor right after a normal
  impulse of 4; mu = 0.5 caps friction at 0.5*4 = 2, so the crate slows from 3 to 2.
    $ cat crate.csv
    vax,vay,wa,vbx,vby,wb,nx,ny,mu,jn
    0,0,0,3,0,0.5,0,1,0.5,4
    $ impulse-contact crate.csv
    jn,jtx,jty,vax,vay,vbx,vby,regime
    4,-2,0,0,0,2,0,sliding

  A rod struck at its end: a ball (point mass, wa = 1) moving at (1, 0) hits the top end of a
  resting rod of mass 2 and length 2 along y (wb = 0.5; I = m L^2/12 = 2/3, so ib = 1.5) at
  rB = (0, 1), n = (1, 0), e = 1. Along n: k = wa + wb + (rB x n)^2 ib = 1 + 0.5 + 1.5 = 3, so
  jn = (1 + e) * 1 / 3 = 2/3; the ball keeps 1 - 2/3 = 1/3, the rod moves at 2/3 * 0.5 = 1/3 and
  spins at omb = ib (rB x jn n) = 1.5 * (-2/3) = -1 (clockwise). Kinetic energy stays 1/2.
    $ cat rod.csv
    vax,vay,wa,vbx,vby,wb,nx,ny,e,ib,rbx,rby
    1,0,1,0,0,0.5,1,0,1,1.5,0,1
    $ impulse-contact rod.csv
    jn,jtx,jty,vax,vay,vbx,vby,oma,omb,regime
    0.6666666666666666,0,0,0.33333333333333337,0,0.3333333333333333,0,0,-1,sticking
  (Printed exactly: 1 - 2/3 in double is 0.33333333333333337, one step above the double
  nearest 1/3. The contact point then slides along no tangent, hence sticking.)
)";
}

int cli(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err)
{
    const std::string* file = nullptr;
    Options options;
    bool options_done = false;
    // Writes text to out (--help, --version) and flushes it.
    auto print = [&](const std::string& text) {
        errno = 0;
        if (out << text << std::flush) return ok;
        return cannot_write(err, errno);
    };
    for (const std::string& a : args) {
        if (!options_done && (a == "--help" || a == "-h")) return print(help_text());
        if (!options_done && a == "--version") return print(version_text());
        if (!options_done && a == "--coupled") {
            options.coupled = true;
            continue;
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

    if (!file || *file == "-") return run(in, "<stdin>", out, err, options);
    errno = 0;
    std::ifstream f(*file, std::ios::binary);
    if (!f) {
        const int code = errno;
        err << program << ": " << escaped(*file) << ": cannot open" << reason(code) << '\n';
        return failure;
    }
    return run(f, *file, out, err, options);
}

}  // namespace impulse_contact
