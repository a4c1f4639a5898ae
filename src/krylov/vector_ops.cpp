// Device and host Krylov vector operations (see vector_ops.hpp).
#include "krylov/vector_ops.hpp"

#include <algorithm>

#include "core/dispatch.hpp"
#include "krylov/kernels/krylov_host.hpp"
#include "krylov/kernels/krylov_kernels.hpp"

namespace tessera::krylov {

namespace {

using kernels::in;
using kernels::out;
using launch::In;
using launch::Out;

/// Calls f(S{}) with the basis storage type S: R, or the narrow one of a
/// compressed basis.
template <class R, class F>
void with_storage(bool compressed, F&& f) {
  if (compressed)
    f(launch::narrow_t<R>{});
  else
    f(R{});
}

template <class V>
constexpr int components() {
  return sparse::is_complex_v<V> ? 2 : 1;
}

// Reals of the coefficient list [a, c_0, ..., c_{k-1}], appended to out.
template <class V>
void pack_coef(V a, const V* c, int k, std::vector<real_of<V>>& out) {
  constexpr int nc = components<V>();
  auto put = [&](V v) {
    if constexpr (nc == 1) {
      out.push_back(v);
    } else {
      out.push_back(v.real());
      out.push_back(v.imag());
    }
  };
  put(a);
  for (int i = 0; i < k; ++i) put(c[i]);
}

/// combine2's coefficients: a and c[0..k), then, where `second` has an
/// output, its own; returns where the second's start.
template <class V, class Second>
std::size_t pack_combine(V a, const V* c, int k, const Second& second,
                         std::vector<real_of<V>>& out) {
  out.clear();
  pack_coef(a, c, k, out);
  const std::size_t off2 = out.size();
  if (second.y) pack_coef(second.a, second.c, second.k, out);
  return off2;
}

void check_slot(std::size_t size, std::size_t n, std::size_t slot, std::size_t count,
                const char* what) {
  if ((slot + count) * n > size)
    throw Error(std::string("krylov: ") + what + " reaches slot " + std::to_string(slot + count) +
                " of a block of " + std::to_string(n ? size / n : 0) + " vectors");
}

// The slots a dots call reads exist (any block type with size() in values).
template <class B, class W2>
void check_dots(std::size_t n, const B& basis, std::size_t first, int k, const B& w,
                std::size_t w_slot, const W2* w2, std::size_t w2_slot) {
  check_slot(basis.size(), n, first, std::size_t(k), "dots (basis)");
  check_slot(w.size(), n, w_slot, 1, "dots (w)");
  if (w2) check_slot(w2->size(), n, w2_slot, 1, "dots (w2)");
}

}  // namespace

template <Scalar V>
DeviceVectorOps<V>::DeviceVectorOps(std::shared_ptr<Device> device, std::size_t n, int max_terms,
                                    int block)
    : Base(n),
      device_(std::move(device)),
      max_terms_(std::max(max_terms, 1)),
      block_(std::clamp(block, 1, TS_KRY_BLOCK_MAX)),
      // two complex coefficient lists, at least update's two lists of 3, and
      // combine_block's block_ lists of block_ + max_terms_ complex values
      slot_reals_(
          std::max<std::size_t>({4 * std::size_t(max_terms_ + 1), 12,
                                 2 * std::size_t(block_) * std::size_t(block_ + max_terms_)})),
      slots_(std::max<std::size_t>(8, 2 * std::size_t(max_terms_) + 8)),
      // the products of max_terms_ basis vectors against two right-hand sides, or a block's
      partials_(device_, 2 * std::size_t(std::max(2, block_)) *
                             std::max<std::size_t>(kernels::chunks(n), 1) *
                             std::size_t(max_terms_)),
      sums_(device_, 2 * std::size_t(std::max(2, block_)) * std::size_t(max_terms_)),
      coef_(device_, slot_reals_ * slots_),
      coef_host_(device_, slot_reals_ * slots_) {}

template <Scalar V>
void DeviceVectorOps<V>::dots_raw(Operand basis, int k, Operand w, Operand w2, V* out, V* out2,
                                  bool compressed) {
  if (k <= 0) return;
  if (k > max_terms_)
    throw Error("krylov: " + std::to_string(k) + " dot products at once; capacity " +
                std::to_string(max_terms_));
  constexpr int nc = components<V>();
  using R = real_of<V>;
  const int count =
      w2.handle ? 2 * k : k;  // the second right-hand side's products follow the first's
  // the chunk partials are reduced on the device too: only 2 * count reals cross
  Device& d = *device_;
  const std::size_t values = n_ * nc;
  with_storage<R>(compressed, [&](auto store) {
    using S = decltype(store);
    dispatch(d, [&](auto tag) {
      kernels::dots(tag, d.queue(), nc, n_, k, values, in<S>(d, basis.handle, basis.slot * values),
                    in<S>(d, w.handle, w.slot * values), in<R>(d, w2.handle, w2.slot * values),
                    Out<R>(partials_));
    });
  });
  reduce_partials(count, nullptr);
  if (out) pairs_to_values<V>(host_sums_.data(), std::size_t(k), out);
  if (w2.handle) pairs_to_values<V>(host_sums_.data() + 2 * k, std::size_t(k), out2);
}

template <Scalar V>
void DeviceVectorOps<V>::reduce_partials(int count, V* out) {
  using R = real_of<V>;
  dispatch(*device_, [&](auto tag) {
    kernels::sum_chunks(tag, device_->queue(), n_, count, In<R>(partials_), Out<R>(sums_));
  });
  host_sums_.resize(2 * std::size_t(count));
  device_->queue().read(sums_.handle(), 0, host_sums_.data(), host_sums_.size() * sizeof(R), true);
  next_slot_ = 0;  // the blocking read drained the queue: every slot is free
  if (out) pairs_to_values<V>(host_sums_.data(), std::size_t(count), out);
}

template <Scalar V>
std::size_t DeviceVectorOps<V>::claim_coefficient_slot() {
  if (next_slot_ == slots_) {  // every slot may still be in flight
    device_->queue().synchronize();
    next_slot_ = 0;
  }
  return next_slot_++ * slot_reals_;
}

template <Scalar V>
std::size_t DeviceVectorOps<V>::upload_coefficients() {
  using R = real_of<V>;
  if (packed_.size() > slot_reals_) throw Error("krylov: coefficient list longer than a ring slot");
  const std::size_t off = claim_coefficient_slot();
  std::copy(packed_.begin(), packed_.end(), coef_host_.data() + off);
  device_->queue().write(coef_.handle(), off * sizeof(R), coef_host_.data() + off,
                         packed_.size() * sizeof(R), false);
  return off;
}

template <Scalar V>
template <class B>
void DeviceVectorOps<V>::dcgs2_step_on(B& basis, std::size_t j, const Vec& w) {
  using R = real_of<V>;
  constexpr int nc = components<V>();
  using S = std::conditional_t<std::is_same_v<B, Basis>, launch::narrow_t<R>, R>;
  const int k = static_cast<int>(j) + 1;
  if (pending_.size() >= 2)
    throw Error("krylov: a third DCGS2 step enqueued before the first one's sums were taken");
  if (k > max_terms_)
    throw Error("krylov: DCGS2 step " + std::to_string(j) + "; capacity " +
                std::to_string(max_terms_));
  if (!device_coefficients())
    throw Error("krylov: DCGS2's device coefficients need double precision on " + device_->id());
  check_slot(basis.size(), n_, 0, j + 2, "DCGS2 step (basis)");
  check_slot(w.size(), n_, 0, 1, "DCGS2 step (w)");
  // the lists [inv, c_0..c_j] and [inv, c2_0..c2_{j-1}] (krylov_dcgs2.h), checked before anything is enqueued
  if (std::size_t(nc) * (2 * j + 3) > slot_reals_)
    throw Error("krylov: coefficient list longer than a ring slot");
  const std::size_t reals = 4 * std::size_t(max_terms_);
  if (!steps_)
    steps_.reset(new StepSums{{Buffer<R>(device_, reals), Buffer<R>(device_, reals)},
                              PinnedBuffer<R>(device_, 2 * reals)});
  const int slot = next_step_slot_;
  next_step_slot_ ^= 1;
  const std::size_t ld = n_ * nc;
  Device& d = *device_;
  dispatch(d, [&](auto tag) {
    kernels::dots(tag, d.queue(), nc, n_, k, ld, in<S>(d, basis.handle(), 0),
                  in<S>(d, basis.handle(), j * ld), in<R>(d, w.handle()), Out<R>(partials_));
    kernels::sum_chunks(tag, d.queue(), n_, 2 * k, In<R>(partials_), Out<R>(steps_->device[slot]));
  });
  Queue& q = device_->queue();
  q.read(steps_->device[slot].handle(), 0, steps_->host.data() + slot * reals,
         4 * std::size_t(k) * sizeof(R), false);
  pending_.push_back({slot, k, q.record()});
  const std::size_t off = claim_coefficient_slot();
  // the next candidate to slot j + 1 and q_j in place in slot j, one pass
  kernels::Combine<R, S> o;
  o.coef = in<R>(d, coef_.handle(), off);
  o.x = in<R>(d, w.handle());
  o.v = in<S>(d, basis.handle());
  o.ld = ld;
  o.k = k;
  o.y = out<S>(d, basis.handle(), (j + 1) * ld);
  o.coef2 = in<R>(d, coef_.handle(), off + std::size_t(nc) * (j + 2));
  o.x2 = in<S>(d, basis.handle(), j * ld);
  o.y2 = out<S>(d, basis.handle(), j * ld);
  o.k2 = static_cast<int>(j);
  dispatch(d, [&](auto tag) {
    kernels::dcgs2_coef(tag, d.queue(), nc, static_cast<int>(j), In<R>(steps_->device[slot]),
                        out<R>(d, coef_.handle(), off));
    kernels::combine(tag, d.queue(), nc, n_, o);
  });
}

template <Scalar V>
void DeviceVectorOps<V>::dcgs2_sums(std::vector<real_of<V>>& sums) {
  if (pending_.empty()) throw Error("krylov: no DCGS2 step is pending");
  PendingStep p = std::move(pending_.front());
  pending_.erase(pending_.begin());
  p.copied->wait();
  const auto* h = steps_->host.data() + std::size_t(p.slot) * 4 * std::size_t(max_terms_);
  sums.assign(h, h + 4 * std::size_t(p.k));
}

template <Scalar V>
template <class B>
void DeviceVectorOps<V>::dots2_checked(const B& basis, std::size_t first, int k, const B& w,
                                       std::size_t w_slot, const Vec* w2, std::size_t w2_slot,
                                       V* out, V* out2) {
  if (k <= 0) return;
  check_dots(n_, basis, first, k, w, w_slot, w2, w2_slot);
  dots_raw({basis.handle(), first}, k, {w.handle(), w_slot}, {w2 ? w2->handle() : nullptr, w2_slot},
           out, out2, std::is_same_v<B, Basis>);
}

template <Scalar V>
void DeviceVectorOps<V>::dots2(const Vec& basis, std::size_t first, int k, const Vec& w,
                               std::size_t w_slot, const Vec* w2, std::size_t w2_slot, V* out,
                               V* out2) {
  dots2_checked(basis, first, k, w, w_slot, w2, w2_slot, out, out2);
}

template <Scalar V>
void DeviceVectorOps<V>::dots2(const Basis& basis, std::size_t first, int k, const Basis& w,
                               std::size_t w_slot, const Vec* w2, std::size_t w2_slot, V* out,
                               V* out2) {
  dots2_checked(basis, first, k, w, w_slot, w2, w2_slot, out, out2);
}

template <Scalar V>
void DeviceVectorOps<V>::dots(const Basis& basis, std::size_t first, int k, const Vec& w,
                              std::size_t w_slot, V* out) {
  if (k <= 0) return;
  check_slot(basis.size(), n_, first, std::size_t(k), "dots (basis)");
  check_slot(w.size(), n_, w_slot, 1, "dots (w)");
  dots_raw({basis.handle(), first}, k, {basis.handle(), first}, {w.handle(), w_slot}, nullptr, out,
           true);
}

template <Scalar V>
void DeviceVectorOps<V>::combine_raw(void* y, std::size_t y_slot, bool y_real, V a, Operand x,
                                     Operand basis, int k, const V* c, const RawSecond& second,
                                     bool compressed) {
  if (k > max_terms_)
    throw Error("krylov: a combination of " + std::to_string(k) + " vectors; capacity " +
                std::to_string(max_terms_));
  if (second.y && (second.k < 0 || second.k > k))
    throw Error("krylov: combine's second output takes at most the first's vectors");
  constexpr int nc = components<V>();
  using R = real_of<V>;
  const std::size_t off2 = pack_combine(a, c, k, second, packed_);
  const std::size_t off = upload_coefficients();
  Device& d = *device_;
  const std::size_t values = n_ * nc;
  with_storage<R>(compressed, [&](auto store) {
    using S = decltype(store);
    kernels::Combine<R, S> o;
    o.coef = in<R>(d, coef_.handle(), off);
    o.x = in<R>(d, x.handle, x.slot * values);
    o.v = in<S>(d, k > 0 ? basis.handle : nullptr, basis.slot * values);
    o.ld = values;
    o.k = k;
    if (y_real)  // a working vector over a narrow basis
      o.yw = out<R>(d, y, y_slot * values);
    else
      o.y = out<S>(d, y, y_slot * values);
    if (second.y) {
      o.y2 = out<S>(d, second.y, second.y_slot * values);
      o.coef2 = in<R>(d, coef_.handle(), off + off2);
      o.x2 = in<S>(d, second.x.handle, second.x.slot * values);
      o.k2 = second.k;
    }
    dispatch(d, [&](auto tag) { kernels::combine(tag, d.queue(), nc, n_, o); });
  });
}

template <Scalar V>
template <class Y, class B, class Sec>
void DeviceVectorOps<V>::combine2_checked(Y& y, std::size_t y_slot, V a, const Vec* x,
                                          std::size_t x_slot, const B* basis, std::size_t first,
                                          int k, const V* c, const Sec& second) {
  check_slot(y.size(), n_, y_slot, 1, "combine (y)");
  if (x) check_slot(x->size(), n_, x_slot, 1, "combine (x)");
  if (k > 0) check_slot(basis->size(), n_, first, std::size_t(k), "combine (basis)");
  RawSecond s2;
  if (second.y) {
    check_slot(second.y->size(), n_, second.y_slot, 1, "combine (second y)");
    if (second.x) check_slot(second.x->size(), n_, second.x_slot, 1, "combine (second x)");
    s2 = {second.y->handle(), second.y_slot,
          second.a,           {second.x ? second.x->handle() : nullptr, second.x_slot},
          second.k,           second.c};
  }
  constexpr bool compressed = std::is_same_v<B, Basis>;
  // a working-precision y over a compressed basis: the basis widened
  constexpr bool y_real = compressed && std::is_same_v<Y, Vec>;
  combine_raw(y.handle(), y_slot, y_real, a, {x ? x->handle() : nullptr, x_slot},
              {basis ? basis->handle() : nullptr, first}, k, c, s2, compressed);
}

template <Scalar V>
void DeviceVectorOps<V>::combine2(Vec& y, std::size_t y_slot, V a, const Vec* x, std::size_t x_slot,
                                  const Vec* basis, std::size_t first, int k, const V* c,
                                  const Second& second) {
  combine2_checked(y, y_slot, a, x, x_slot, basis, first, k, c, second);
}

template <Scalar V>
void DeviceVectorOps<V>::combine2(Basis& y, std::size_t y_slot, V a, const Vec* x,
                                  std::size_t x_slot, const Basis* basis, std::size_t first, int k,
                                  const V* c, const BasisSecond& second) {
  combine2_checked(y, y_slot, a, x, x_slot, basis, first, k, c, second);
}

template <Scalar V>
void DeviceVectorOps<V>::combine_basis_x(Basis& y, std::size_t y_slot, V a, const Basis* x,
                                         std::size_t x_slot, const Basis* basis, std::size_t first,
                                         int k, const V* c) {
  check_slot(y.size(), n_, y_slot, 1, "combine (y)");
  if (x) check_slot(x->size(), n_, x_slot, 1, "combine (x)");
  if (k > 0) check_slot(basis->size(), n_, first, std::size_t(k), "combine (basis)");
  // the kernels' basis-typed x is the second output's: the first output
  // (zero coefficients) goes to y's scratch slot
  zeros_.assign(std::size_t(k), V(0));
  const RawSecond s2{y.handle(), y_slot, a, {x ? x->handle() : nullptr, x_slot}, k, c};
  combine_raw(y.handle(), y.scratch_slot(), false, V(0), {},
              {basis ? basis->handle() : nullptr, first}, k, zeros_.data(), s2, true);
}

template <Scalar V>
void DeviceVectorOps<V>::widen(Vec& y, std::size_t y_slot, V a, const Vec* x, std::size_t x_slot,
                               const Basis* basis, std::size_t first, int k, const V* c) {
  combine2_checked(y, y_slot, a, x, x_slot, basis, first, k, c, CombineSecond<Basis, V>{});
}

template <Scalar V>
void DeviceVectorOps<V>::block_diag(int bs, const Buffer<V>& d, const Vec& x, Vec& y) {
  if (bs <= 0 || x.size() % std::size_t(bs) || d.size() != x.size() * std::size_t(bs) ||
      y.size() != x.size())
    throw Error("krylov: block_diag sizes do not fit (n " + std::to_string(x.size()) + ", block " +
                std::to_string(bs) + ", diagonal " + std::to_string(d.size()) + ")");
  constexpr int nc = components<V>();
  using R = real_of<V>;
  Device& dev = *device_;
  dispatch(dev, [&](auto tag) {
    kernels::block_diag(tag, dev.queue(), nc, x.size(), bs, in<R>(dev, d.handle()),
                        in<R>(dev, x.handle()), out<R>(dev, y.handle()));
  });
}

template <Scalar V>
void DeviceVectorOps<V>::dots_block(const Vec& basis, std::size_t first, int k, std::size_t y_first,
                                    int t, V* out) {
  if (k <= 0 || t <= 0) return;
  if (k > max_terms_ || t > block_)
    throw Error("krylov: block products of " + std::to_string(k) + " x " + std::to_string(t) +
                " vectors; capacity " + std::to_string(max_terms_) + " x " +
                std::to_string(block_));
  check_slot(basis.size(), n_, first, std::size_t(k), "dots_block (basis)");
  check_slot(basis.size(), n_, y_first, std::size_t(t), "dots_block (block)");
  constexpr int nc = components<V>();
  using R = real_of<V>;
  Device& d = *device_;
  const std::size_t values = n_ * nc;
  dispatch(d, [&](auto tag) {
    kernels::dots_block(tag, d.queue(), nc, n_, k, t, values,
                        in<R>(d, basis.handle(), first * values),
                        in<R>(d, basis.handle(), y_first * values), Out<R>(partials_));
  });
  reduce_partials(k * t, out);
}

template <Scalar V>
void DeviceVectorOps<V>::combine_block(Vec& basis, std::size_t y_first, int t, const V* a,
                                       std::size_t first, int k, const V* c) {
  if (t <= 0) return;
  if (k < 0 || k > max_terms_ || t > block_)
    throw Error("krylov: a block combination of " + std::to_string(t) + " outputs over " +
                std::to_string(k) + " vectors; capacity " + std::to_string(block_) + " over " +
                std::to_string(max_terms_));
  check_slot(basis.size(), n_, y_first, std::size_t(t), "combine_block (block)");
  if (k > 0) check_slot(basis.size(), n_, first, std::size_t(k), "combine_block (basis)");
  if (k > 0 && first < y_first + std::size_t(t) && y_first < first + std::size_t(k))
    throw Error("krylov: combine_block's block and basis overlap");
  constexpr int nc = components<V>();
  using R = real_of<V>;
  packed_.clear();
  for (int r = 0; r < t; ++r) {
    pack_coef(a[std::size_t(r) * t], a + std::size_t(r) * t + 1, t - 1, packed_);
    for (int i = 0; i < k; ++i) pack_coef<V>(c[std::size_t(r) * k + i], nullptr, 0, packed_);
  }
  const std::size_t off = upload_coefficients();
  Device& d = *device_;
  const std::size_t values = n_ * nc;
  dispatch(d, [&](auto tag) {
    kernels::combine_block(tag, d.queue(), nc, n_, t, k, values, in<R>(d, coef_.handle(), off),
                           in<R>(d, k > 0 ? basis.handle() : nullptr, first * values),
                           out<R>(d, basis.handle(), y_first * values));
  });
}

template <Scalar V>
void DeviceVectorOps<V>::update(Vec& y, const Lin& lin, Vec* y2, const Lin& lin2,
                                const Buffer<V>* d, Vec* z, const Products& want, V* out) {
  const Vec* e = want.e;
  auto fits = [&](const Buffer<V>* v, const char* what) {
    if (v && v->size() != n_)
      throw Error(std::string("krylov: update's ") + what + " has " + std::to_string(v->size()) +
                  " values, the vectors " + std::to_string(n_));
  };
  for (auto [v, what] : {std::pair{(const Buffer<V>*)&y, "y"},
                         {lin.x, "x"},
                         {lin.u, "u"},
                         {lin.w, "w"},
                         {(const Buffer<V>*)y2, "y2"},
                         {d, "diagonal"},
                         {(const Buffer<V>*)z, "z"},
                         {e, "e"}})
    fits(v, what);
  if (y2) {
    fits(lin2.x, "x2");
    fits(lin2.u, "u2");
    fits(lin2.w, "w2");
  }
  if (bool(d) != bool(z)) throw Error("krylov: update's z = d y needs both d and z");
  if (want.yz && !z) throw Error("krylov: update's product <y, z> needs z");
  // one kernel pass forms one of <y, z> and <e, y> (their partials share a
  // slot): asking for <e, y> while z is formed would silently give <y, z>
  if (e && z) throw Error("krylov: update's product <e, y> cannot be formed with z = d y");
  constexpr int nc = components<V>();
  using R = real_of<V>;
  packed_.clear();
  const V c3[2] = {lin.b, lin.c}, c3b[2] = {lin2.b, lin2.c};
  pack_coef(lin.a, c3, 2, packed_);
  pack_coef(lin2.a, c3b, 2, packed_);
  const std::size_t off = upload_coefficients();
  Device& dev = *device_;
  auto h = [&](const Buffer<V>* v) { return in<R>(dev, v ? v->handle() : nullptr); };
  auto o = [&](Buffer<V>* v) { return kernels::out<R>(dev, v ? v->handle() : nullptr); };
  kernels::Update<R> op;
  op.x = h(lin.x), op.u = h(lin.u), op.w = h(lin.w), op.y = o(&y);
  if (y2) op.x2 = h(lin2.x), op.u2 = h(lin2.u), op.w2 = h(lin2.w), op.y2 = o(y2);
  if (z)
    op.d = h(d), op.z = o(z);
  else
    op.e = h(e);
  op.norm = want.norm;
  op.dot = want.yz || e;
  dispatch(dev, [&](auto tag) {
    kernels::update(tag, dev.queue(), nc, n_, in<R>(dev, coef_.handle(), off), op,
                    Out<R>(partials_));
  });
  if (op.products() > 0) reduce_partials(op.products(), out);
}

template <Scalar V>
HostVectorOps<V>::HostVectorOps(std::size_t n, int max_terms) : Base(n) {
  (void)max_terms;
}

template <Scalar V>
void HostVectorOps<V>::dots2(const Vec& basis, std::size_t first, int k, const Vec& w,
                             std::size_t w_slot, const Vec* w2, std::size_t w2_slot, V* out,
                             V* out2) {
  if (k <= 0) return;
  check_dots(n_, basis, first, k, w, w_slot, w2, w2_slot);
  constexpr int nc = components<V>();
  using R = real_of<V>;
  const std::size_t chunks = kernels::chunks(n_), set = 2 * chunks * std::size_t(k);
  const int count = w2 ? 2 * k : k;
  partials_.resize(w2 ? 2 * set : set);
  host::dots<R>(nc, n_, k, reinterpret_cast<const R*>(basis.data() + first * n_), n_ * nc,
                reinterpret_cast<const R*>(w.data() + w_slot * n_),
                w2 ? reinterpret_cast<const R*>(w2->data() + w2_slot * n_) : nullptr,
                partials_.data());
  sums_.resize(2 * std::size_t(count));
  host::sum_chunks<R>(chunks, count, partials_.data(), sums_.data());
  pairs_to_values<V>(sums_.data(), std::size_t(k), out);
  if (w2) pairs_to_values<V>(sums_.data() + 2 * k, std::size_t(k), out2);
}

template <Scalar V>
void HostVectorOps<V>::combine2(Vec& y, std::size_t y_slot, V a, const Vec* x, std::size_t x_slot,
                                const Vec* basis, std::size_t first, int k, const V* c,
                                const Second& second) {
  check_slot(y.size(), n_, y_slot, 1, "combine (y)");
  if (x) check_slot(x->size(), n_, x_slot, 1, "combine (x)");
  if (k > 0) check_slot(basis->size(), n_, first, std::size_t(k), "combine (basis)");
  if (second.y) {
    check_slot(second.y->size(), n_, second.y_slot, 1, "combine (second y)");
    if (second.x) check_slot(second.x->size(), n_, second.x_slot, 1, "combine (second x)");
    if (second.k < 0 || second.k > k)
      throw Error("krylov: combine's second output takes at most the first's vectors");
  }
  constexpr int nc = components<V>();
  using R = real_of<V>;
  const std::size_t off2 = pack_combine(a, c, k, second, coef_);
  auto ptr = [&](const Vec* v, std::size_t slot) {
    return v ? reinterpret_cast<const R*>(v->data() + slot * n_) : nullptr;
  };
  host::combine<R>(
      nc, n_, k, coef_.data(), ptr(x, x_slot), k > 0 ? ptr(basis, first) : nullptr, n_ * nc,
      reinterpret_cast<R*>(y.data() + y_slot * n_), second.k, coef_.data() + off2,
      ptr(second.x, second.x_slot),
      second.y ? reinterpret_cast<R*>(second.y->data() + second.y_slot * n_) : nullptr);
}

template class DeviceVectorOps<float>;
template class DeviceVectorOps<double>;
template class DeviceVectorOps<std::complex<float>>;
template class DeviceVectorOps<std::complex<double>>;
template class HostVectorOps<float>;
template class HostVectorOps<double>;
template class HostVectorOps<std::complex<float>>;
template class HostVectorOps<std::complex<double>>;

}  // namespace tessera::krylov
