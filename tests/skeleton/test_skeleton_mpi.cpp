// Run with mpirun -np 2 / -np 3: containers spread over M ranks x L local
// parts (argv[1], default 1) equal a one-part run in this process bitwise:
// map, zip, fold, mapStencil in every boundary mode (the plane counts do not
// divide), a component-selective exchange and a field checkpoint. Exit 0 only if all agree.
#include <cstdio>
#include <filesystem>
#include <cstring>
#include <string>
#include <vector>

#include "skeleton/examples.hpp"
#include "skeleton/mpi_comm.hpp"
#include "skeleton/skeleton.hpp"

namespace {

using namespace tessera::skeleton;
namespace ex = examples;

int failures = 0;
int rank_ = 0;
const char* phase = "";  // which communicator the checks run on

void check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "rank %d: FAILED (%s): %s\n", rank_, phase, what.c_str());
  }
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

std::vector<float> input(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  unsigned s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = float(s >> 8) / float(1u << 24) - 0.5f;
  }
  return v;
}

template <class Fn>
std::vector<float> stencil_on(Team team, const Extents& e, const std::vector<float>& in,
                              const Fn& f, const Stencil& st) {
  DC<float> a(team, e.n[0], e.n[1], e.n[2]), out(team, e.n[0], e.n[1], e.n[2], 0.0f);
  a.scatter(in);
  a.mapStencil(f, out, st, 0.5f, ex::Ramp{});
  return out.gather();
}

// Everything once per communicator: `label` says which (whole messages, or
// every message cut into 7-byte pieces: the path of messages over 2 GiB).
void run_all(const std::shared_ptr<Comm>& world, int local, const char* label) {
  phase = label;
  try {
    Team dist = Team::open("cpu", local, world);
    Team single = Team::open("cpu", 1);
    const Extents e = extents_3d(7, 5, 17);  // 17 planes over 2, 3, 4 or 6 parts
    const auto in = input(static_cast<std::size_t>(e.volume()), 7);
    const auto in2 = input(static_cast<std::size_t>(e.volume()), 8);

    // map and zip
    {
      DC<float> a(dist, 7, 5, 17), b(dist, 7, 5, 17), o(dist, 7, 5, 17);
      DC<float> sa(single, 7, 5, 17), sb(single, 7, 5, 17), so(single, 7, 5, 17);
      a.scatter(in), b.scatter(in2), sa.scatter(in), sb.scatter(in2);
      a.mapIndex(ex::Wave{}, o);
      sa.mapIndex(ex::Wave{}, so);
      check(same_bits(o.gather(), so.gather()), "mapIndex");
      a.zipInPlace(b, ex::Axpy{});
      sa.zipInPlace(sb, ex::Axpy{});
      check(same_bits(a.gather(), sa.gather()), "zipInPlace");
      const float f1 = a.fold(ex::Add{}), f2 = sa.fold(ex::Add{});
      check(std::memcmp(&f1, &f2, sizeof f1) == 0,
            "fold: " + std::to_string(f1) + " vs " + std::to_string(f2));
    }
    // mapStencil, every mode, radius 2 and per-axis radius
    for (int m = 0; m < 5; ++m) {
      const Stencil st = Stencil::uniform(2, static_cast<BoundaryMode>(m));
      check(same_bits(stencil_on(dist, e, in, ex::Star2{}, st),
                      stencil_on(single, e, in, ex::Star2{}, st)),
            "mapStencil star2 mode " + std::to_string(m));
      Stencil s312 = Stencil::uniform(3, static_cast<BoundaryMode>(m));
      s312.radius = {3, 1, 2};
      check(same_bits(stencil_on(dist, e, in, ex::Star312{}, s312),
                      stencil_on(single, e, in, ex::Star312{}, s312)),
            "mapStencil star312 mode " + std::to_string(m));
    }
    // exchange of selected components across ranks
    {
      FieldOptions o;
      o.halo = {0, 0, 1};
      Field<float> f(dist, e, 2, o);
      std::vector<float> g(static_cast<std::size_t>(2 * e.volume()));
      for (std::size_t i = 0; i < g.size(); ++i) g[i] = float(i);
      f.scatter(g);
      ExchangeRequest r;
      r.per_face = true;
      r.to_upper[2] = {1};
      r.to_lower[2] = {0};
      f.exchange(r);
      for (int p = 0; p < f.parts(); ++p) {
        const PartLayout& L = f.layout(p);
        const auto buf = f.buffer(p).to_vector();
        if (L.owned.lo[2] > 0) {  // lower halo: component 1 of the plane below
          const float got = buf[static_cast<std::size_t>(L.offset(3, 2, -1, 1))];
          const float want =
              g[static_cast<std::size_t>(e.volume() + ((L.owned.lo[2] - 1) * 5 + 2) * 7 + 3)];
          check(got == want, "exchange lower halo of part " + std::to_string(L.global_part));
        }
        if (L.owned.hi[2] < 17) {  // upper halo: component 0 of the plane above
          const float got = buf[static_cast<std::size_t>(L.offset(3, 2, L.extent(2), 0))];
          const float want = g[static_cast<std::size_t>((L.owned.hi[2] * 5 + 2) * 7 + 3)];
          check(got == want, "exchange upper halo of part " + std::to_string(L.global_part));
        }
      }
      check(f.last_exchange().mpi_bytes > 0, "exchange sent nothing through MPI");
    }
    // gather_to_root: the global field on rank 0, nothing elsewhere (3 components)
    {
      DC<float> a(dist, 7, 5, 17);
      a.scatter(in);
      const auto root = a.field().gather_to_root();
      check(world->rank() == 0 ? same_bits(root, in) : root.empty(), "gather_to_root");
      const auto many_in = input(in.size() * 3, 77);
      Field<float> m(dist, extents_3d(7, 5, 17), 3);
      m.scatter(many_in);
      const auto many = m.gather_to_root();
      check(world->rank() == 0 ? same_bits(many, many_in) : many.empty(),
            "gather_to_root, 3 components");
    }
    // checkpoint: rank 0 writes what the ranks sent it; it restores on one
    // part in each process and back onto the ranks; a failure reaches every rank
    {
      const std::string file =
          (std::filesystem::temp_directory_path() /
           ("tessera-skel-mpi-np" + std::to_string(world->size()) + "x" + std::to_string(local) +
            "-" + std::to_string(std::strlen(label)) + ".ckpt"))
              .string();
      DC<float> a(dist, 7, 5, 17);
      a.scatter(in);
      save_checkpoint(a, file, 11);
      DC<float> s(single, 7, 5, 17, -1.0f);
      check(load_checkpoint(s, file) == 11 && same_bits(s.gather(), in),
            "checkpoint restored on one part");
      DC<float> b(dist, 7, 5, 17, -2.0f);
      check(load_checkpoint(b, file) == 11 && same_bits(b.gather(), in),
            "checkpoint restored on the ranks");
      bool threw = false;
      try {
        load_checkpoint(b, file + ".missing");
      } catch (const tessera::Error&) {
        threw = true;
      }
      check(threw, "a missing checkpoint is an error on every rank");
      world->barrier();
      if (rank_ == 0) std::filesystem::remove(file);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s: %s\n", rank_, label, e.what());
    ++failures;
  }
}

}  // namespace

int main(int argc, char** argv) {
  MpiSession mpi(&argc, &argv);
  auto world = mpi.world();
  rank_ = world->rank();
  const int local = argc > 1 ? std::stoi(argv[1]) : 1;
  run_all(world, local, "whole messages");
  run_all(mpi.world(7), local, "7-byte pieces");
  int total = 0;
  const auto all = world->allgather(&failures, sizeof failures);
  for (std::size_t r = 0; r < all.size() / sizeof(int); ++r) {
    int f = 0;
    std::memcpy(&f, all.data() + r * sizeof(int), sizeof f);
    total += f;
  }
  if (rank_ == 0)
    std::printf("skeleton MPI test on %d ranks x %d local parts: %s\n", world->size(), local,
                total ? "FAILED" : "passed");
  return total ? 1 : 0;
}
