#include "sparse/trace_generator.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>
#include <numeric>

#include <fmt/format.h>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "sparse/convert.hpp"

namespace tessera::sparse {

namespace {

/// Cell numbering of one grid block, ghosts included: theta fastest, then x,
/// then r (see trace_generator.hpp for why).
struct Grid {
  size64 nx, nt, nr, g, gr;  // interior cells; ghost width (gr = 0 in 2D)
  bool periodic;
  size64 NX() const { return nx + 2 * g; }
  size64 NT() const { return nt + 2 * g; }
  size64 NR() const { return nr + 2 * gr; }
  size64 slots() const { return NX() * NT() * NR(); }
  size64 cells() const { return nx * nt * nr; }
  size64 index(size64 x, size64 t, size64 r) const {
    return ((r + gr) * NX() + (x + g)) * NT() + (t + g);
  }
  explicit Grid(const TraceCase& c)
      : nx(c.nx),
        nt(c.ntheta),
        nr(c.nr),
        g(c.ghost),
        gr(c.three_d() ? c.ghost : 0),
        periodic(c.periodic_theta) {}
};

/// splitmix64's finaliser: a bijective mix, good enough for test data.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
std::uint64_t hash(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  return mix(mix(mix(mix(a) ^ b) ^ c) ^ d);
}
/// Uniform in [-1, 1).
double unit(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-52 - 1.0; }

/// Zero pattern of each stencil direction: true = structural zero.
std::vector<std::vector<char>> zero_masks(size64 points, int v) {
  std::vector<std::vector<char>> masks(static_cast<std::size_t>(points));
  for (size64 d = 0; d < points; ++d) {
    std::vector<int> candidates;
    for (int k = 0; k < v * v; ++k)
      if (d != 0 || k / v != k % v) candidates.push_back(k);  // never the centre's diagonal
    const std::size_t zeros = d == 0 ? static_cast<std::size_t>(v * (v - 1) * 7 / 20)
                                     : static_cast<std::size_t>(v * v * 4 / 25);
    // The same pattern for every seed: structure is physics, values are data.
    std::sort(candidates.begin(), candidates.end(),
              [&](int a, int b) { return hash(0x7ace, d, a, 0) < hash(0x7ace, d, b, 0); });
    masks[d].assign(static_cast<std::size_t>(v * v), 0);
    for (std::size_t k = 0; k < zeros && k < candidates.size(); ++k) masks[d][candidates[k]] = 1;
  }
  return masks;
}

struct Neighbour {
  size64 cell;  // index in the ghosted numbering
  int dir;      // position in stencil_offsets()
};

/// The stored neighbours of interior cell (x, t, r), ascending by cell index.
std::vector<Neighbour> neighbours(const Grid& grid, const std::vector<std::array<int, 3>>& offs,
                                  size64 x, size64 t, size64 r) {
  std::vector<Neighbour> out;
  for (int d = 0; d < static_cast<int>(offs.size()); ++d) {
    const size64 X = x + offs[d][0], R = r + offs[d][2];
    size64 T = t + offs[d][1];
    if (grid.periodic) T = (T + grid.nt) % grid.nt;
    if (X < 0 || X >= grid.nx || T < 0 || T >= grid.nt || R < 0 || R >= grid.nr)
      continue;  // ghost: not stored
    out.push_back({grid.index(X, T, R), d});
  }
  std::sort(out.begin(), out.end(),
            [](const Neighbour& a, const Neighbour& b) { return a.cell < b.cell; });
  return out;
}

template <class F>
void for_cells(const Grid& grid, F&& f) {  // interior cells in numbering order
  size64 id = 0;
  for (size64 r = 0; r < grid.nr; ++r)
    for (size64 x = 0; x < grid.nx; ++x)
      for (size64 t = 0; t < grid.nt; ++t) f(id++, x, t, r);
}

[[noreturn]] void bad_case(std::string_view spec, std::string_view why) {
  throw UsageError(
      fmt::format("bad TRACE case '{}': {} (expected KIND:NXxNTHETAxNR[,blocks=N,seed=S,"
                  "ghost=G,dominance=D,periodic] with KIND trace, euler3d, ns3d, euler2d "
                  "or ns2d, or trace:1..trace:6)",
                  spec, why));
}

template <class N>
N parse_number(std::string_view spec, std::string_view text, std::string_view what) {
  N v{};
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size())
    bad_case(spec, fmt::format("invalid {} '{}'", what, text));
  return v;
}

constexpr std::array<std::string_view, 4> kStencilNames{"euler2d", "ns2d", "euler3d", "ns3d"};
static_assert(kStencilNames.size() == std::size_t(Stencil::ns3d_25) + 1);
}  // namespace

std::string_view to_string(Stencil s) { return enum_name(s, kStencilNames); }

std::vector<std::array<int, 3>> stencil_offsets(Stencil s) {
  const bool three_d = s == Stencil::euler3d_13 || s == Stencil::ns3d_25;
  const bool manhattan = s == Stencil::ns2d_13 || s == Stencil::ns3d_25;
  std::vector<std::array<int, 3>> out{{0, 0, 0}};
  const int rr = three_d ? 2 : 0;
  for (int dr = -rr; dr <= rr; ++dr)
    for (int dx = -2; dx <= 2; ++dx)
      for (int dt = -2; dt <= 2; ++dt) {
        const int dist = std::abs(dx) + std::abs(dt) + std::abs(dr);
        const int axes = (dx != 0) + (dt != 0) + (dr != 0);
        // Euler: along one axis only; Navier-Stokes: Manhattan distance <= 2.
        if (dist == 0 || dist > 2 || (!manhattan && axes != 1)) continue;
        out.push_back({dx, dt, dr});
      }
  return out;
}

std::string TraceCase::name() const {
  std::string s = stencil == Stencil::euler3d_13 ? "trace" : std::string(to_string(stencil));
  s += three_d() ? fmt::format(":{}x{}x{}", nx, ntheta, nr) : fmt::format(":{}x{}", nx, ntheta);
  const TraceCase d;
  if (grid_blocks != d.grid_blocks) s += fmt::format(",blocks={}", grid_blocks);
  if (seed != d.seed) s += fmt::format(",seed={}", seed);
  if (ghost != d.ghost) s += fmt::format(",ghost={}", ghost);
  if (dominance != d.dominance) s += fmt::format(",dominance={}", dominance);
  if (periodic_theta) s += ",periodic";
  return s;
}

std::vector<TraceCase> thesis_cases() {
  const int dims[6][3] = {{10, 40, 20}, {10, 40, 40}, {20, 40, 20},
                          {10, 40, 80}, {10, 80, 40}, {40, 80, 40}};
  std::vector<TraceCase> out;
  for (const auto& d : dims) {
    TraceCase c;
    c.nx = d[0];
    c.ntheta = d[1];
    c.nr = d[2];
    out.push_back(c);
  }
  return out;
}

TraceCase parse_trace_case(std::string_view spec) {
  std::vector<std::string_view> parts;
  for (std::string_view rest = spec;;) {
    const auto comma = rest.find(',');
    parts.push_back(rest.substr(0, comma));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  const auto colon = parts[0].find(':');
  if (colon == std::string_view::npos) bad_case(spec, "no ':'");
  const std::string_view kind = parts[0].substr(0, colon), dims = parts[0].substr(colon + 1);
  TraceCase c;
  if (kind == "trace" || kind == "euler3d")
    c.stencil = Stencil::euler3d_13;
  else if (kind == "ns3d")
    c.stencil = Stencil::ns3d_25;
  else if (kind == "euler2d")
    c.stencil = Stencil::euler2d_9;
  else if (kind == "ns2d")
    c.stencil = Stencil::ns2d_13;
  else
    bad_case(spec, fmt::format("unknown kind '{}'", kind));
  if (kind == "trace" && dims.size() == 1 && dims[0] >= '1' && dims[0] <= '6') {
    c = thesis_cases()[dims[0] - '1'];
  } else {
    std::vector<int> n;
    for (std::string_view rest = dims;;) {
      const auto x = rest.find('x');
      n.push_back(parse_number<int>(spec, rest.substr(0, x), "cell count"));
      if (x == std::string_view::npos) break;
      rest.remove_prefix(x + 1);
    }
    if (n.size() != (c.three_d() ? 3u : 2u))
      bad_case(spec,
               fmt::format("{} needs {} cell counts", to_string(c.stencil), c.three_d() ? 3 : 2));
    for (int v : n)
      if (v < 1 || v > 100000) bad_case(spec, "cell counts must be 1..100000");
    c.nx = n[0];
    c.ntheta = n[1];
    c.nr = c.three_d() ? n[2] : 1;
  }
  for (std::size_t k = 1; k < parts.size(); ++k) {
    const auto eq = parts[k].find('=');
    const std::string_view key = parts[k].substr(0, eq);
    const std::string_view val =
        eq == std::string_view::npos ? std::string_view{} : parts[k].substr(eq + 1);
    if (key == "periodic" && eq == std::string_view::npos)
      c.periodic_theta = true;
    else if (key == "blocks")
      c.grid_blocks = parse_number<int>(spec, val, "block count");
    else if (key == "seed")
      c.seed = parse_number<std::uint64_t>(spec, val, "seed");
    else if (key == "ghost")
      c.ghost = parse_number<int>(spec, val, "ghost width");
    else if (key == "dominance")
      c.dominance = parse_number<double>(spec, val, "dominance");
    else
      bad_case(spec, fmt::format("unknown option '{}'", parts[k]));
  }
  if (c.grid_blocks < 1 || c.grid_blocks > 4096) bad_case(spec, "blocks must be 1..4096");
  if (c.ghost < 0 || c.ghost > 8) bad_case(spec, "ghost must be 0..8");
  if (!(c.dominance > 0)) bad_case(spec, "dominance must be positive");
  if (c.periodic_theta && c.ntheta < 5)
    bad_case(spec, "periodic theta needs at least 5 cells in theta");
  return c;
}

TraceSizes trace_sizes(const TraceCase& c) {
  const Grid grid(c);
  TraceSizes s;
  s.cells_per_block = grid.cells();
  s.slots_per_block = grid.slots();
  s.rows_per_block = checked_mul(grid.slots(), c.vars, "TRACE rows");
  s.stored_rows_per_block = grid.cells() * c.vars;
  const auto offs = stencil_offsets(c.stencil);
  for (const auto& o : offs) {
    const size64 t = grid.periodic ? grid.nt : std::max<size64>(grid.nt - std::abs(o[1]), 0);
    s.blocks_per_block += std::max<size64>(grid.nx - std::abs(o[0]), 0) * t *
                          std::max<size64>(grid.nr - std::abs(o[2]), 0);
  }
  s.max_blocks_per_block = static_cast<size64>(offs.size()) * grid.cells();
  s.total_blocks = checked_mul(s.blocks_per_block, c.grid_blocks, "TRACE blocks");
  return s;
}

template <Scalar T>
GappedBcsr<T> generate_trace_block(const TraceCase& c, int index) {
  const Grid grid(c);
  const auto offs = stencil_offsets(c.stencil);
  const auto masks = zero_masks(static_cast<size64>(offs.size()), c.vars);
  const int v = c.vars;
  const size64 bs = static_cast<size64>(v) * v;
  GappedBcsr<T> out;
  out.rows = out.cols = to_index(checked_mul(grid.slots(), v, "TRACE rows"), "TRACE rows");
  out.block = {v, v, BlockLayout::row_major};
  // Blocks per interior cell, then offsets.
  std::vector<size64> first(static_cast<std::size_t>(grid.cells()) + 1, 0);
  std::vector<size64> where(static_cast<std::size_t>(grid.cells()));  // ghosted index of each cell
  for_cells(grid, [&](size64 id, size64 x, size64 t, size64 r) {
    first[id + 1] = static_cast<size64>(neighbours(grid, offs, x, t, r).size());
    where[id] = grid.index(x, t, r);
  });
  std::partial_sum(first.begin(), first.end(), first.begin());
  const size64 nblocks = to_index(first.back(), "TRACE blocks");
  out.col.resize(static_cast<std::size_t>(nblocks));
  out.val.assign(
      static_cast<std::size_t>(to_index(checked_mul(nblocks, bs, "TRACE values"), "TRACE values")),
      T(0));
  out.row_ptr.assign(static_cast<std::size_t>(grid.slots()) + 1, kGhostRow);
  for (size64 id = 0; id < grid.cells(); ++id)
    out.row_ptr[where[id]] = static_cast<index_t>(first[id]);
  out.row_ptr.back() = static_cast<index_t>(nblocks);

  const std::uint64_t seed = hash(c.seed, static_cast<std::uint64_t>(index), 0x6d61, 0);
#pragma omp parallel for schedule(static)
  for (size64 id = 0; id < grid.cells(); ++id) {
    const size64 t = id % grid.nt, x = (id / grid.nt) % grid.nx, r = id / (grid.nt * grid.nx);
    const auto nb = neighbours(grid, offs, x, t, r);
    std::vector<double> row_sum(static_cast<std::size_t>(v), 0.0);
    size64 centre = -1;
    for (std::size_t k = 0; k < nb.size(); ++k) {
      const size64 b = first[id] + static_cast<size64>(k);
      out.col[b] = static_cast<index_t>(nb[k].cell);
      if (nb[k].dir == 0) centre = b;
      for (int e = 0; e < v * v; ++e) {
        if (masks[nb[k].dir][e] || (nb[k].dir == 0 && e / v == e % v)) continue;
        const std::uint64_t h = hash(seed, static_cast<std::uint64_t>(where[id]), nb[k].dir, e);
        T value;
        if constexpr (is_complex_v<T>)
          value = T(static_cast<real_t<T>>(unit(h)), static_cast<real_t<T>>(unit(mix(h))));
        else
          value = static_cast<T>(unit(h));
        if (value == T(0)) value = T(0.5);  // keep the zero pattern exactly the mask's
        out.val[b * bs + e] = value;
        row_sum[e / v] += static_cast<double>(magnitude(value));
      }
    }
    for (int i = 0; i < v; ++i) {
      const double m = row_sum[i] > 0 ? c.dominance * row_sum[i] : 1.0;
      T d;
      if constexpr (is_complex_v<T>) {
        const double phase = unit(hash(seed, static_cast<std::uint64_t>(where[id]), 0xd1a9, i)) *
                             (std::numbers::pi / 6);
        d = T(static_cast<real_t<T>>(m * std::cos(phase)),
              static_cast<real_t<T>>(m * std::sin(phase)));
      } else {
        d = static_cast<T>(m);
      }
      out.val[centre * bs + i * v + i] = d;
    }
  }
  return out;
}

template <Scalar T>
std::vector<GappedBcsr<T>> generate_trace(const TraceCase& c) {
  std::vector<GappedBcsr<T>> out;
  for (int k = 0; k < c.grid_blocks; ++k) out.push_back(generate_trace_block<T>(c, k));
  return out;
}

template <Scalar T>
Csr<T> block_diagonal(const std::vector<GappedBcsr<T>>& blocks) {
  Csr<T> out;
  for (const auto& g : blocks) {
    const Csr<T> a = to_csr(g, Zeros::keep);
    const size64 base = out.nnz(), shift = out.cols;
    to_index(out.rows + a.rows, "block-diagonal rows");
    to_index(base + a.nnz(), "block-diagonal entries");
    for (size64 i = 0; i < a.rows; ++i)
      out.row_ptr.push_back(static_cast<index_t>(base + a.row_ptr[i + 1]));
    for (index_t j : a.col) out.col.push_back(static_cast<index_t>(j + shift));
    out.val.insert(out.val.end(), a.val.begin(), a.val.end());
    out.rows += a.rows;
    out.cols += a.cols;
  }
  return out;
}

#define TESSERA_INSTANTIATE(T)                                          \
  template GappedBcsr<T> generate_trace_block(const TraceCase&, int);   \
  template std::vector<GappedBcsr<T>> generate_trace(const TraceCase&); \
  template Csr<T> block_diagonal(const std::vector<GappedBcsr<T>>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
