// SPDX-License-Identifier: MIT
// detail/simd.hpp: every wide operation on every wide type of the build's rung (its widest
// registers, the narrower ones a kernel's last contacts use, a Twin of two, and the scalar rung's
// width 1, which every target has), lane by lane against the scalar operation it stands for.
// Where the expected value is the scalar operation's, IEEE 754 pins it (+ - * / and sqrt are
// correctly rounded) or the standard does (std::min(a, b) is `b < a ? b : a`, std::max(a, b) is
// `a < b ? b : a`); the bit patterns (sign bits, 1/3, sqrt 2) are worked out by hand.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <impulse/detail/simd.hpp>

#include "catch.hpp"

// Register types as template arguments drop their attributes, on purpose (as in simd.hpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wignored-attributes"
#endif

namespace simd = impulse::detail::simd;

namespace {

template <class S>
using W = simd::Wide<S>;

/// Every wide type a kernel can meet on this build (repeats where the rung has fewer).
using WideTypes = std::tuple<float, double, W<float>, W<double>, simd::Narrower<W<float>>, simd::Narrower<W<double>>,
                             simd::Narrower<simd::Narrower<W<float>>>, simd::Narrower<simd::Narrower<W<double>>>,
                             simd::Twin<W<float>>, simd::Twin<W<double>>>;

template <class S>
simd::Bits<S> bits(S x)
{
    simd::Bits<S> u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}
template <class S>
S from_bits(simd::Bits<S> u)
{
    S x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}
/// The same bits, or both NaN (a NaN's payload is not part of any result).
template <class S>
bool same(S a, S b)
{
    return bits(a) == bits(b) || (std::isnan(a) && std::isnan(b));
}

/// The lanes of a wide value, as an array.
template <class P>
struct Lanes {
    using S = simd::Scalar<P>;
    static constexpr int N = simd::lanes<P>;
    S v[N];

    Lanes() = default;
    explicit Lanes(const P& x) { simd::store(v, x); }
    P wide() const { return simd::load<P>(v); }
};

/// Scalars whose operations round, overflow, underflow and compare in every way: zeros of both
/// signs, ones, thirds, the smallest and largest numbers, a subnormal, infinities and NaN.
template <class S>
std::vector<S> specials()
{
    using L = std::numeric_limits<S>;
    return {S(0),        -S(0),        S(1),         S(-1),  S(2),          S(3),          S(1) / S(3),
            S(-2.5),     S(0.1),       S(7e-3),      S(1e7), L::min(),      L::denorm_min(), -L::min(),
            L::max(),    -L::max(),    L::infinity(), -L::infinity(), L::quiet_NaN(), S(1) + L::epsilon()};
}

/// Runs `check(a, b, l)` over every ordered pair of specials, `lanes<P>` pairs at a time (pair
/// `first + l` in lane l), with `a` and `b` the wide values; `check` returns "" or what differs.
template <class P, class F>
std::string over_pairs(F check)
{
    using S = simd::Scalar<P>;
    const std::vector<S> x = specials<S>();
    std::vector<std::pair<S, S>> pairs;
    for (const S a : x)
        for (const S b : x) pairs.emplace_back(a, b);
    for (std::size_t first = 0; first < pairs.size(); first += std::size_t(Lanes<P>::N)) {
        Lanes<P> a, b;
        for (int l = 0; l < Lanes<P>::N; ++l) {
            const auto& p = pairs[(first + std::size_t(l)) % pairs.size()];
            a.v[l] = p.first;
            b.v[l] = p.second;
        }
        const std::string why = check(a, b);
        if (!why.empty()) return why;
    }
    return "";
}

template <class S>
std::string show(const char* what, int lane, S a, S b, S got, S want)
{
    return std::string(what) + " lane " + std::to_string(lane) + ": a " + std::to_string(double(a)) + " b " +
           std::to_string(double(b)) + " got " + std::to_string(double(got)) + " want " + std::to_string(double(want));
}

}  // namespace

TEST_CASE("the ladder's widest registers have the lanes its table gives", "[simd]")
{
    // The table in simd.hpp: AVX-512 16 floats / 8 doubles, AVX 8 / 4, SSE2 and NEON 4 / 2, scalar 1.
    int floats = 1, doubles = 1;
    switch (simd::isa) {
    case simd::Isa::avx512: floats = 16, doubles = 8; break;
    case simd::Isa::avx:
    case simd::Isa::avx2: floats = 8, doubles = 4; break;
    case simd::Isa::sse2:
    case simd::Isa::neon: floats = 4, doubles = 2; break;
    case simd::Isa::scalar: break;
    }
    CHECK(simd::lanes<W<float>> == floats);
    CHECK(simd::lanes<W<double>> == doubles);
    CHECK(simd::lanes<simd::Twin<W<double>>> == 2 * doubles);
    // On a vector rung the widest register is the one Eigen vectorizes with (its packet math
    // serves it).
    if (simd::isa != simd::Isa::scalar) {
        CHECK(std::is_same<W<float>, Eigen::internal::packet_traits<float>::type>::value);
        CHECK(std::is_same<W<double>, Eigen::internal::packet_traits<double>::type>::value);
    }
    // Narrowing ends at a register of at least 128 bits (or the scalar itself).
    using Narrowest = simd::Narrower<simd::Narrower<W<float>>>;
    CHECK(std::is_same<simd::Narrower<Narrowest>, Narrowest>::value);
    CHECK(simd::lanes<Narrowest> == (simd::isa == simd::Isa::scalar ? 1 : 4));
}

TEMPLATE_LIST_TEST_CASE("load and store move every lane at any alignment, broadcast and zero fill all lanes",
                        "[simd]", WideTypes)
{
    using P = TestType;
    using S = simd::Scalar<P>;
    constexpr int N = simd::lanes<P>;
    S memory[2 * N + 1];
    for (int i = 0; i < 2 * N + 1; ++i) memory[i] = S(i) + S(0.5);
    // from one element past the start: not aligned to the register
    const P x = simd::load<P>(memory + 1);
    S out[N + 2] = {};
    simd::store(out + 1, x);
    for (int l = 0; l < N; ++l) CHECK(out[l + 1] == S(l + 1) + S(0.5));
    CHECK(out[0] == S(0));  // nothing written outside the lanes
    CHECK(out[N + 1] == S(0));

    const Lanes<P> b(simd::broadcast<P>(S(-2.25)));
    const Lanes<P> z(simd::zero<P>());
    for (int l = 0; l < N; ++l) {
        CHECK(b.v[l] == S(-2.25));
        CHECK(bits(z.v[l]) == 0);  // +0: no bit set
    }
}

TEMPLATE_LIST_TEST_CASE("wide arithmetic rounds each lane as the scalar operation does", "[simd]", WideTypes)
{
    using P = TestType;
    using S = simd::Scalar<P>;
    const std::string why = over_pairs<P>([](const Lanes<P>& a, const Lanes<P>& b) -> std::string {
        const P wa = a.wide(), wb = b.wide();
        const Lanes<P> add(simd::add(wa, wb)), sub(simd::sub(wa, wb)), mul(simd::mul(wa, wb)),
            div(simd::div(wa, wb)), root(simd::sqrt(wa));
        for (int l = 0; l < Lanes<P>::N; ++l) {
            const S x = a.v[l], y = b.v[l];
            if (!same(add.v[l], S(x + y))) return show("add", l, x, y, add.v[l], S(x + y));
            if (!same(sub.v[l], S(x - y))) return show("sub", l, x, y, sub.v[l], S(x - y));
            if (!same(mul.v[l], S(x * y))) return show("mul", l, x, y, mul.v[l], S(x * y));
            if (!same(div.v[l], S(x / y))) return show("div", l, x, y, div.v[l], S(x / y));
            if (!same(root.v[l], std::sqrt(x))) return show("sqrt", l, x, y, root.v[l], std::sqrt(x));
        }
        return "";
    });
    INFO(why);
    CHECK(why.empty());

    // By hand: 1/3 and sqrt 2, rounded to nearest: float 0x3EAAAAAB and 0x3FB504F3, double
    // 0x3FD5555555555555 and 0x3FF6A09E667F3BCD (an approximate square root or division misses them).
    const Lanes<P> third(simd::div(simd::broadcast<P>(S(1)), simd::broadcast<P>(S(3))));
    const Lanes<P> root2(simd::sqrt(simd::broadcast<P>(S(2))));
    const bool single = sizeof(S) == 4;
    for (int l = 0; l < Lanes<P>::N; ++l) {
        CHECK(bits(third.v[l]) == (single ? 0x3EAAAAABull : 0x3FD5555555555555ull));
        CHECK(bits(root2.v[l]) == (single ? 0x3FB504F3ull : 0x3FF6A09E667F3BCDull));
    }
}

TEMPLATE_LIST_TEST_CASE("neg flips only the sign bit and abs clears it, for zeros and NaN too", "[simd]", WideTypes)
{
    using P = TestType;
    using S = simd::Scalar<P>;
    constexpr simd::Bits<S> sign = simd::Bits<S>(1) << (8 * sizeof(S) - 1);
    const std::string why = over_pairs<P>([](const Lanes<P>& a, const Lanes<P>&) -> std::string {
        const Lanes<P> n(simd::neg(a.wide())), m(simd::abs(a.wide()));
        for (int l = 0; l < Lanes<P>::N; ++l) {
            if (bits(n.v[l]) != (bits(a.v[l]) ^ sign)) return show("neg", l, a.v[l], S(0), n.v[l], -a.v[l]);
            if (bits(m.v[l]) != (bits(a.v[l]) & ~sign)) return show("abs", l, a.v[l], S(0), m.v[l], a.v[l]);
        }
        return "";
    });
    INFO(why);
    CHECK(why.empty());
    // -(+0) is -0, not the +0 of 0 - (+0)
    CHECK(bits(Lanes<P>(simd::neg(simd::zero<P>())).v[0]) == sign);
}

TEMPLATE_LIST_TEST_CASE("min and max choose as std::min and std::max do, NaN and signed zeros included", "[simd]",
                        WideTypes)
{
    using P = TestType;
    using S = simd::Scalar<P>;
    const std::string why = over_pairs<P>([](const Lanes<P>& a, const Lanes<P>& b) -> std::string {
        const Lanes<P> lo(simd::min(a.wide(), b.wide())), hi(simd::max(a.wide(), b.wide()));
        for (int l = 0; l < Lanes<P>::N; ++l) {
            const S x = a.v[l], y = b.v[l];
            const S want_lo = y < x ? y : x, want_hi = x < y ? y : x;  // std::min, std::max
            if (!same(lo.v[l], want_lo)) return show("min", l, x, y, lo.v[l], want_lo);
            if (!same(hi.v[l], want_hi)) return show("max", l, x, y, hi.v[l], want_hi);
        }
        return "";
    });
    INFO(why);
    CHECK(why.empty());
    // By hand: neither of +0 and -0 is less than the other, so both give their first argument; a
    // comparison with NaN is false, so min(NaN, 1) is NaN and min(1, NaN) is 1.
    const P pz = simd::zero<P>(), nz = simd::neg(pz), one = simd::broadcast<P>(S(1));
    const P nan = simd::broadcast<P>(std::numeric_limits<S>::quiet_NaN());
    CHECK(bits(Lanes<P>(simd::min(pz, nz)).v[0]) == bits(S(0)));
    CHECK(bits(Lanes<P>(simd::min(nz, pz)).v[0]) == bits(-S(0)));
    CHECK(bits(Lanes<P>(simd::max(nz, pz)).v[0]) == bits(-S(0)));
    CHECK(std::isnan(Lanes<P>(simd::min(nan, one)).v[0]));
    CHECK(Lanes<P>(simd::min(one, nan)).v[0] == S(1));
    CHECK(std::isnan(Lanes<P>(simd::max(nan, one)).v[0]));
    CHECK(Lanes<P>(simd::max(one, nan)).v[0] == S(1));
}

TEMPLATE_LIST_TEST_CASE("comparisons are false in NaN lanes, and masks combine, select and reduce lane by lane",
                        "[simd]", WideTypes)
{
    using P = TestType;
    using S = simd::Scalar<P>;
    constexpr int N = simd::lanes<P>;
    constexpr std::uint32_t all_lanes = N == 32 ? ~0u : (std::uint32_t(1) << N) - 1;
    const std::string why = over_pairs<P>([](const Lanes<P>& a, const Lanes<P>& b) -> std::string {
        const P wa = a.wide(), wb = b.wide();
        const auto lt = simd::lt(wa, wb), le = simd::le(wa, wb), eq = simd::eq(wa, wb);
        std::uint32_t want_lt = 0, want_le = 0, want_eq = 0;
        for (int l = 0; l < N; ++l) {
            want_lt |= std::uint32_t(a.v[l] < b.v[l]) << l;
            want_le |= std::uint32_t(a.v[l] <= b.v[l]) << l;
            want_eq |= std::uint32_t(a.v[l] == b.v[l]) << l;
        }
        if (simd::movemask(lt) != want_lt) return "lt " + std::to_string(simd::movemask(lt));
        if (simd::movemask(le) != want_le) return "le " + std::to_string(simd::movemask(le));
        if (simd::movemask(eq) != want_eq) return "eq " + std::to_string(simd::movemask(eq));
        if (simd::movemask(simd::mask_and(lt, eq)) != 0) return "lt and eq";
        if (simd::movemask(simd::mask_or(lt, eq)) != (want_lt | want_eq)) return "lt or eq";
        if (simd::movemask(simd::mask_andnot(le, eq)) != (want_le & ~want_eq)) return "le and not eq";
        if (simd::any(le) != (want_le != 0)) return "any";
        if (simd::all(le) != (want_le == all_lanes)) return "all";
        const Lanes<P> pick(simd::select(lt, wa, wb)), kept(simd::keep(lt, wa));
        for (int l = 0; l < N; ++l) {
            const bool m = (want_lt >> l) & 1u;
            const S want_pick = m ? a.v[l] : b.v[l], want_kept = m ? a.v[l] : S(0);
            if (bits(pick.v[l]) != bits(want_pick)) return show("select", l, a.v[l], b.v[l], pick.v[l], want_pick);
            if (bits(kept.v[l]) != bits(want_kept)) return show("keep", l, a.v[l], b.v[l], kept.v[l], want_kept);
        }
        return "";
    });
    INFO(why);
    CHECK(why.empty());
    // Every lane, and no lane: x == x holds in every lane without NaN, x < x in none.
    const P x = simd::broadcast<P>(S(1.5));
    CHECK(simd::all(simd::eq(x, x)));
    CHECK(simd::movemask(simd::eq(x, x)) == all_lanes);
    CHECK_FALSE(simd::any(simd::lt(x, x)));
    CHECK(simd::movemask(simd::lt(x, x)) == 0);
}

TEMPLATE_LIST_TEST_CASE("integer codes ride in lanes through select and come out as one byte per lane", "[simd]",
                        WideTypes)
{
    using P = TestType;
    using S = simd::Scalar<P>;
    constexpr int N = simd::lanes<P>;
    // Codes 0..255 in lanes: lane l holds (37 l + 5) mod 256, so lanes 0..31 cover small and large codes.
    Lanes<P> codes;
    for (int l = 0; l < N; ++l) codes.v[l] = from_bits<S>(simd::Bits<S>((37 * l + 5) % 256));
    std::uint8_t out[N + 1];
    std::memset(out, 0xEE, sizeof out);
    simd::store_codes(out, codes.wide());
    for (int l = 0; l < N; ++l) CHECK(out[l] == (37 * l + 5) % 256);
    CHECK(out[N] == 0xEE);  // nothing past the lanes

    // Two codes chosen per lane by a mask (lane l even gets 1, odd 2), then narrowed: the kernel's
    // use for regimes.
    Lanes<P> value;
    for (int l = 0; l < N; ++l) value.v[l] = S(l % 2);
    const P picked = simd::select(simd::lt(value.wide(), simd::broadcast<P>(S(0.5))), simd::broadcast_code<P>(1),
                                  simd::broadcast_code<P>(2));
    simd::store_codes(out, picked);
    for (int l = 0; l < N; ++l) CHECK(out[l] == (l % 2 == 0 ? 1 : 2));
    simd::store_codes(out, simd::broadcast_code<P>(255));
    for (int l = 0; l < N; ++l) CHECK(out[l] == 255);
}

TEMPLATE_LIST_TEST_CASE("gather reads and scatter writes one element per lane, chosen by index", "[simd]", WideTypes)
{
    using P = TestType;
    using S = simd::Scalar<P>;
    constexpr int N = simd::lanes<P>;
    S base[64];
    for (int i = 0; i < 64; ++i) base[i] = S(100 + i);
    std::int32_t index[N];
    for (int l = 0; l < N; ++l) index[l] = (5 * l + 3) % 64;  // distinct for up to 64 lanes
    const Lanes<P> got(simd::gather<P>(base, index));
    for (int l = 0; l < N; ++l) CHECK(got.v[l] == S(100 + (5 * l + 3) % 64));

    S target[64] = {};
    Lanes<P> x;
    for (int l = 0; l < N; ++l) x.v[l] = S(-1 - l);
    simd::scatter(target, index, x.wide());
    int written = 0;
    for (int i = 0; i < 64; ++i) written += target[i] != S(0);
    CHECK(written == N);
    for (int l = 0; l < N; ++l) CHECK(target[index[l]] == S(-1 - l));
}

TEMPLATE_LIST_TEST_CASE("rows of four come in as lanes and go back to the rows whose lanes are chosen", "[simd]",
                        WideTypes)
{
    // Expected values by construction: record r holds r*10 + k in its scalar k.
    using P = TestType;
    using S = simd::Scalar<P>;
    constexpr int N = simd::lanes<P>;
    S records[20][4];
    for (int r = 0; r < 20; ++r)
        for (int k = 0; k < 4; ++k) records[r][k] = S(r * 10 + k);
    auto record = [](int l) { return (7 * l + 2) % 20; };  // distinct for up to 20 lanes
    const S* in[N];
    S* out_rows[N];
    for (int l = 0; l < N; ++l) {
        in[l] = records[record(l)];
        out_rows[l] = records[record(l)];
    }
    P x[4];
    simd::Rows4<P>::gather(in, x);
    for (int k = 0; k < 4; ++k) {
        const Lanes<P> got(x[k]);
        for (int l = 0; l < N; ++l) CHECK(got.v[l] == S(record(l) * 10 + k));
    }
    // Back, negated, to the even lanes' rows only: the odd lanes' rows keep their values.
    P neg[4];
    for (int k = 0; k < 4; ++k) neg[k] = simd::neg(x[k]);
    std::uint32_t even = 0;
    for (int l = 0; l < N; l += 2) even |= 1u << l;
    simd::Rows4<P>::scatter(out_rows, neg, even);
    for (int l = 0; l < N; ++l)
        for (int k = 0; k < 4; ++k) {
            const S value = S(record(l) * 10 + k);
            CHECK(records[record(l)][k] == (l % 2 == 0 ? -value : value));
        }
}
