// The Krylov vector operations, on a device (resident mode) or on the host
// (thesis mode), computing the same numbers in the same order: both run the
// kernels of kernels/krylov_point.h (the host through the CPU loops) and sum
// the per-chunk partials of a dot product in order on the host.
//
// A "block" is `slots` vectors of n values stored one after another; slot s
// starts at element s*n. Single vectors are blocks of one slot.
#pragma once
#include <complex>
#include <concepts>
#include <memory>
#include <vector>

#include "core/buffer.hpp"
#include "krylov/kernels/krylov_kernels.hpp"
#include "sparse/types.hpp"

namespace tessera::krylov {

using sparse::Scalar;
template <class V>
using real_of = sparse::real_t<V>;

/// k reduced products stored as (re, im) pairs (the sums' layout; the
/// imaginary part of a real value is unused) as values.
template <class V>
void pairs_to_values(const real_of<V>* p, std::size_t k, V* out) {
  for (std::size_t i = 0; i < k; ++i) {
    if constexpr (sparse::is_complex_v<V>)
      out[i] = V(p[2 * i], p[2 * i + 1]);
    else
      out[i] = p[2 * i];
  }
}

/// The second output of combine2: y[y_slot] = a*x[x_slot] + sum_{i<k} c[i]*basis[first+i]
/// over the first output's basis (k at most the first output's count).
template <class Vec, class V>
struct CombineSecond {
  Vec* y = nullptr;
  std::size_t y_slot = 0;
  V a{};
  const Vec* x = nullptr;
  std::size_t x_slot = 0;
  int k = 0;
  const V* c = nullptr;
};

/// What DeviceVectorOps and HostVectorOps (Ops) share: vectors Vec of n
/// values, combine2's second output, and dots and combine as the one-output
/// forms of Ops's dots2 and combine2.
template <class Ops, class Vec, Scalar V>
class VectorOpsBase {
 public:
  using Second = CombineSecond<Vec, V>;
  std::size_t n() const { return n_; }
  /// out[i] = <basis[first+i], w[w_slot]> (conjugate on the basis), i < k.
  void dots(const Vec& basis, std::size_t first, int k, const Vec& w, std::size_t w_slot, V* out) {
    ops().dots2(basis, first, k, w, w_slot, nullptr, 0, out, nullptr);
  }
  /// y[y_slot] = a*x[x_slot] + sum_i c[i]*basis[first+i]; x may be null, may be y.
  void combine(Vec& y, std::size_t y_slot, V a, const Vec* x, std::size_t x_slot, const Vec* basis,
               std::size_t first, int k, const V* c) {
    ops().combine2(y, y_slot, a, x, x_slot, basis, first, k, c, {});
  }

 protected:
  explicit VectorOpsBase(std::size_t n) : n_(n) {}
  std::size_t n_;

 private:
  Ops& ops() { return static_cast<Ops&>(*this); }
};

/// A block of `slots` basis vectors stored in lower precision (GMRES's
/// compressed basis: half for float values, float for double; complex
/// values interleaved), plus one hidden scratch slot. Arithmetic stays in
/// V: loads widen exactly, stores round to nearest even.
template <Scalar V>
class CompressedBlock {
 public:
  using Store = launch::narrow_t<real_of<V>>;
  CompressedBlock(std::shared_ptr<Device> device, std::size_t n, std::size_t slots)
      : n_(n), slots_(slots), data_(std::move(device), (slots + 1) * n * components()) {}
  /// values of the visible slots (as a Buffer<V>'s size)
  std::size_t size() const { return slots_ * n_; }
  std::size_t scratch_slot() const { return slots_; }
  void* handle() const { return data_.handle(); }
  static constexpr std::size_t components() { return sparse::is_complex_v<V> ? 2 : 1; }

 private:
  std::size_t n_, slots_;
  Buffer<Store> data_;
};

template <Scalar V>
class DeviceVectorOps : public VectorOpsBase<DeviceVectorOps<V>, Buffer<V>, V> {
  using Base = VectorOpsBase<DeviceVectorOps<V>, Buffer<V>, V>;

 public:
  using Vec = Buffer<V>;
  using Basis = CompressedBlock<V>;
  using Base::combine;
  using Base::dots;
  using typename Base::Second;
  /// Vectors of n values; combinations of up to max_terms basis vectors;
  /// block operations (s-step GMRES) on blocks of up to `block` vectors.
  DeviceVectorOps(std::shared_ptr<Device> device, std::size_t n, int max_terms, int block = 1);
  Vec make(std::size_t slots = 1) const { return Vec(device_, n_ * slots); }

  /// dots with a second right-hand side in the same pass over the basis:
  /// out2[i] = <basis[first+i], w2[w2_slot]> (w2 null: none). Each result
  /// has the bits dots gives it alone.
  void dots2(const Vec& basis, std::size_t first, int k, const Vec& w, std::size_t w_slot,
             const Vec* w2, std::size_t w2_slot, V* out, V* out2);
  /// combine with an optional second output formed in the same pass (each
  /// basis element read once; outputs may be inputs, element by element).
  void combine2(Vec& y, std::size_t y_slot, V a, const Vec* x, std::size_t x_slot, const Vec* basis,
                std::size_t first, int k, const V* c, const Second& second);
  /// y = blockdiag(d) x (blocks bs x bs, row-major; d on the device).
  void block_diag(int bs, const Buffer<V>& d, const Vec& x, Vec& y);

  // s-step GMRES's block operations on a block Y of t basis vectors
  // (slots y_first .. y_first + t - 1, t at most the constructor's `block`)
  // and k basis vectors Q (slots first .. first + k - 1), one pass over Q.
  /// out[r k + i] = <Q_i, Y_r> (conjugate on Q_i); each product has the bits
  /// dots gives it alone.
  void dots_block(const Vec& basis, std::size_t first, int k, std::size_t y_first, int t, V* out);
  /// In place: Y_r = sum_{l < t} a[r t + l] Y_l + sum_{i < k} c[r k + i] Q_i for r < t
  /// (terms in that order; Y and Q must not overlap).
  void combine_block(Vec& basis, std::size_t y_first, int t, const V* a, std::size_t first, int k,
                     const V* c);

  /// a x + b u + c w; a null vector drops its term.
  struct Lin {
    const Vec* x = nullptr;
    V a{};
    const Vec* u = nullptr;
    V b{};
    const Vec* w = nullptr;
    V c{};
  };
  /// The products an update forms: <y, y> when norm, then <y, z> when yz
  /// (z given), else <e, y> when e is given (e with z is an error: both
  /// would share one pass's partials).
  struct Products {
    bool norm = false;
    bool yz = false;
    const Vec* e = nullptr;
  };
  /// The fused step of CG and BiCGStab (Mode::fused), one pass over the
  /// vectors: y = lin; y2 = lin2 (y2 not null); z = d y (d, z not null: a
  /// point diagonal such as Jacobi's inverse); the products of the new y
  /// (`want`) in out, in that order. Every value has the bits of combine,
  /// block_diag and dots run one after another. Outputs may be inputs of
  /// their own combination.
  void update(Vec& y, const Lin& lin, Vec* y2, const Lin& lin2, const Buffer<V>* d, Vec* z,
              const Products& want, V* out);

  // The same operations on a compressed basis (basis-typed operands Basis,
  // working vectors Vec; the values are computed in V from the stored ones).
  Basis make_basis(std::size_t slots) const { return Basis(device_, n_, slots); }
  void dots2(const Basis& basis, std::size_t first, int k, const Basis& w, std::size_t w_slot,
             const Vec* w2, std::size_t w2_slot, V* out, V* out2);
  void dots(const Basis& basis, std::size_t first, int k, const Basis& w, std::size_t w_slot,
            V* out) {
    dots2(basis, first, k, w, w_slot, nullptr, 0, out, nullptr);
  }
  /// <basis[first+i], w> for a working vector w (the kernels' working
  /// right-hand side is the second: the first reads basis[first] again)
  void dots(const Basis& basis, std::size_t first, int k, const Vec& w, std::size_t w_slot, V* out);
  using BasisSecond = CombineSecond<Basis, V>;
  void combine2(Basis& y, std::size_t y_slot, V a, const Vec* x, std::size_t x_slot,
                const Basis* basis, std::size_t first, int k, const V* c,
                const BasisSecond& second);
  void combine(Basis& y, std::size_t y_slot, V a, const Vec* x, std::size_t x_slot,
               const Basis* basis, std::size_t first, int k, const V* c) {
    combine2(y, y_slot, a, x, x_slot, basis, first, k, c, {});
  }
  /// y = a*x + sum c_i basis[first+i] with x a basis vector (formed as the
  /// kernels' second output; the first goes to the hidden scratch slot)
  /// (templates, so that a null x or basis picks the overloads above)
  template <std::same_as<Basis> X>
  void combine(Basis& y, std::size_t y_slot, V a, const X* x, std::size_t x_slot,
               const Basis* basis, std::size_t first, int k, const V* c) {
    combine_basis_x(y, y_slot, a, x, x_slot, basis, first, k, c);
  }
  /// A working vector from basis vectors: y = a*x + sum c_i basis[first+i].
  template <std::same_as<Basis> B>
  void combine(Vec& y, std::size_t y_slot, V a, const Vec* x, std::size_t x_slot, const B* basis,
               std::size_t first, int k, const V* c) {
    widen(y, y_slot, a, x, x_slot, basis, first, k, c);
  }

  /// DCGS2's step j in the fused mode, enqueued with no host round trip
  /// (docs/krylov.md, "Pipelined DCGS2"): dots2 over slots 0..j against
  /// u_j = basis[j] and w; the coefficient lists from its sums on the device
  /// (krylov_dcgs2.h); combine2 with them, basis[j+1] = the next candidate
  /// and basis[j] = q_j. The sums travel to the host asynchronously:
  /// dcgs2_sums takes them, oldest step first. At most two steps pending.
  void dcgs2_step(Vec& basis, std::size_t j, const Vec& w) { dcgs2_step_on(basis, j, w); }
  void dcgs2_step(Basis& basis, std::size_t j, const Vec& w) { dcgs2_step_on(basis, j, w); }
  /// Waits for the oldest pending step's sums: 4 (j + 1) reals, dots2's
  /// (re, im) pairs, <q_i, u_j> then <q_i, w>.
  void dcgs2_sums(std::vector<real_of<V>>& sums);
  /// Forgets the steps whose sums were not taken (a cycle that stopped
  /// after a step enqueued ahead; their results are never used).
  void dcgs2_drop() { pending_.clear(); }
  /// Whether the device can run the coefficient kernel (double precision).
  bool device_coefficients() const { return device_->info().fp64; }

  void set(Vec& y, const std::vector<V>& host) { y.copy_from_host(host); }
  std::vector<V> get(const Vec& y) const { return y.to_vector(); }
  void finish() { device_->queue().synchronize(); }

 private:
  using Base::n_;
  std::shared_ptr<Device> device_;
  int max_terms_, block_;
  // Coefficients travel through a ring of slots (pinned host memory ->
  // device) with asynchronous writes, so a combination does not stall the
  // queue. A slot is reused only after the queue was synchronised: when the
  // ring wraps, or by a dot product's blocking read (which resets the ring).
  std::size_t slot_reals_, slots_, next_slot_ = 0;
  Buffer<real_of<V>> partials_, sums_, coef_;
  PinnedBuffer<real_of<V>> coef_host_;
  std::vector<real_of<V>> host_sums_, packed_;
  std::vector<V> zeros_;

  // The pipelined DCGS2 steps: device sums and their pinned host copies,
  // two of each (a step's sums stay put while the next one runs), created
  // on first use; the steps not yet taken by dcgs2_sums, oldest first.
  struct StepSums {
    Buffer<real_of<V>> device[2];
    PinnedBuffer<real_of<V>> host;
  };
  struct PendingStep {
    int slot = 0;
    int k = 0;
    std::unique_ptr<Event> copied;
  };
  std::unique_ptr<StepSums> steps_;
  std::vector<PendingStep> pending_;
  int next_step_slot_ = 0;
  template <class B>
  void dcgs2_step_on(B& basis, std::size_t j, const Vec& w);
  /// the next free slot of the coefficient ring; its offset (reals)
  std::size_t claim_coefficient_slot();

  // Every dots and combine above: handles with slot offsets (in values);
  // `compressed`: the basis operands are stored compressed.
  struct Operand {
    const void* handle = nullptr;
    std::size_t slot = 0;
  };
  void dots_raw(Operand basis, int k, Operand w, Operand w2, V* out, V* out2, bool compressed);
  struct RawSecond {
    void* y = nullptr;
    std::size_t y_slot = 0;
    V a{};
    Operand x;
    int k = 0;
    const V* c = nullptr;
  };
  void combine_raw(void* y, std::size_t y_slot, bool y_real, V a, Operand x, Operand basis, int k,
                   const V* c, const RawSecond& second, bool compressed);
  /// copies packed_ into a free slot of the coefficient ring; its offset (reals)
  std::size_t upload_coefficients();
  /// the `count` reduced products (2 reals each) of the chunk partials, to out
  void reduce_partials(int count, V* out);
  template <class B>
  void dots2_checked(const B& basis, std::size_t first, int k, const B& w, std::size_t w_slot,
                     const Vec* w2, std::size_t w2_slot, V* out, V* out2);
  template <class Y, class B, class Sec>
  void combine2_checked(Y& y, std::size_t y_slot, V a, const Vec* x, std::size_t x_slot,
                        const B* basis, std::size_t first, int k, const V* c, const Sec& second);
  void combine_basis_x(Basis& y, std::size_t y_slot, V a, const Basis* x, std::size_t x_slot,
                       const Basis* basis, std::size_t first, int k, const V* c);
  void widen(Vec& y, std::size_t y_slot, V a, const Vec* x, std::size_t x_slot, const Basis* basis,
             std::size_t first, int k, const V* c);
};

template <Scalar V>
class HostVectorOps : public VectorOpsBase<HostVectorOps<V>, std::vector<V>, V> {
  using Base = VectorOpsBase<HostVectorOps<V>, std::vector<V>, V>;

 public:
  using Vec = std::vector<V>;
  using typename Base::Second;
  HostVectorOps(std::size_t n, int max_terms);
  Vec make(std::size_t slots = 1) const { return Vec(n_ * slots); }

  void dots2(const Vec& basis, std::size_t first, int k, const Vec& w, std::size_t w_slot,
             const Vec* w2, std::size_t w2_slot, V* out, V* out2);
  void combine2(Vec& y, std::size_t y_slot, V a, const Vec* x, std::size_t x_slot, const Vec* basis,
                std::size_t first, int k, const V* c, const Second& second);
  void set(Vec& y, const std::vector<V>& host) { y = host; }
  std::vector<V> get(const Vec& y) const { return y; }
  void finish() {}

 private:
  using Base::n_;
  std::vector<real_of<V>> partials_, sums_, coef_;
};

}  // namespace tessera::krylov
