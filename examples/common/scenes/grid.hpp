// SPDX-License-Identifier: MIT
// A uniform-grid broad phase for balls (circles in 2D, spheres in 3D): the scenes' way of finding
// which pairs may touch without testing every pair. Part of the examples, not of the library: an
// engine brings its own broad phase and hands impulse the contacts.
//
// Cells are squares (cubes) of side h >= the largest diameter, so two touching balls always sit in
// the same or in neighbouring cells. Each rebuild counting-sorts the balls by cell (stable: within a
// cell they stay in index order); a query visits the 3^D cells around a ball. After the first
// rebuilds of a scene the storage is large enough and nothing is allocated.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <impulse/impulse.hpp>

namespace scenes {

template <class S, int D>
class Grid {
public:
    using V = impulse::Vec<S, D>;

    /// Sorts `count` centres into cells of side `h` covering the box [lo, hi]. Centres outside the
    /// box count as being in the nearest border cell (still found, just tested more often).
    void build(const V* x, std::size_t count, const V& lo, const V& hi, S h)
    {
        lo_ = lo;
        inv_h_ = S(1) / h;
        std::size_t cells = 1;
        for (int k = 0; k < D; ++k) {
            const S span = (hi[k] - lo[k]) * inv_h_;
            n_[k] = std::max(1, int(std::ceil(span)));
            cells *= std::size_t(n_[k]);
        }
        cell_.resize(count);
        start_.assign(cells + 1, 0);
        for (std::size_t i = 0; i < count; ++i) {
            cell_[i] = cell_index(coords(x[i]));
            ++start_[cell_[i] + 1];
        }
        for (std::size_t c = 0; c < cells; ++c) start_[c + 1] += start_[c];  // prefix sums: first slot of each cell
        fill_.assign(start_.begin(), start_.end() - 1);
        order_.resize(count);
        for (std::size_t i = 0; i < count; ++i) order_[fill_[cell_[i]]++] = std::uint32_t(i);
    }

    /// Calls `f(j)` for every centre j > i in the cells around centre i (those that may touch it),
    /// in increasing j: the pairs come out sorted by (i, j).
    template <class F>
    void near(std::size_t i, const V* x, F&& f)
    {
        near_.clear();
        const Cell c = coords(x[i]);
        Cell lo, hi;
        for (int k = 0; k < D; ++k) {
            lo[k] = std::max(c[k] - 1, 0);
            hi[k] = std::min(c[k] + 1, n_[k] - 1);
        }
        Cell q = lo;
        for (;;) {
            const std::size_t cell = cell_index(q);
            for (std::size_t s = start_[cell]; s < start_[cell + 1]; ++s)
                if (order_[s] > i) near_.push_back(order_[s]);
            int k = 0;  // next cell of the block, like an odometer
            while (k < D && q[k] == hi[k]) q[k] = lo[k], ++k;
            if (k == D) break;
            ++q[k];
        }
        std::sort(near_.begin(), near_.end());
        for (std::uint32_t j : near_) f(std::size_t(j));
    }

private:
    struct Cell {
        int v[D];
        int& operator[](int k) { return v[k]; }
        int operator[](int k) const { return v[k]; }
    };

    Cell coords(const V& p) const
    {
        Cell c;
        for (int k = 0; k < D; ++k) {
            const S f = std::floor((p[k] - lo_[k]) * inv_h_);
            // Clamp in floating point first: a far-away (or non-finite) centre must not overflow int.
            c[k] = f >= S(0) ? (f < S(n_[k]) ? int(f) : n_[k] - 1) : 0;
        }
        return c;
    }

    std::size_t cell_index(const Cell& c) const
    {
        std::size_t idx = 0;
        for (int k = D - 1; k >= 0; --k) idx = idx * std::size_t(n_[k]) + std::size_t(c[k]);
        return idx;
    }

    V lo_ = V::Zero();
    S inv_h_{1};
    int n_[D]{};
    std::vector<std::size_t> cell_;     // cell of each centre
    std::vector<std::size_t> start_;    // first slot of each cell in order_ (and one past the last)
    std::vector<std::size_t> fill_;     // scratch: next free slot per cell while sorting
    std::vector<std::uint32_t> order_;  // centres sorted by cell
    std::vector<std::uint32_t> near_;   // scratch: the candidates of one query
};

}  // namespace scenes
