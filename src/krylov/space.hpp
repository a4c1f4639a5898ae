// The two execution modes as "spaces" the solver algorithms are written
// against once (gmres.cpp, cg.cpp): vector operations (VectorOps), operator
// and preconditioner applications, and the time split.
//   ResidentSpace: vectors are device buffers.
//   ThesisSpace:   vectors are host arrays; each operator application copies
//                  its input to the device and its output back.
#pragma once
#include <chrono>
#include <memory>
#include <vector>

#include "krylov/precond.hpp"
#include "krylov/solver.hpp"
#include "krylov/vector_ops.hpp"

namespace tessera::krylov::detail {

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

template <Scalar V>
class ResidentSpace : public DeviceVectorOps<V> {
 public:
  using Vec = Buffer<V>;
  ResidentSpace(LinearOperator<V>& a, LinearOperator<V>* m, int max_terms, const Options& o,
                TimeSplit& t)
      : DeviceVectorOps<V>(a.device(), a.size(), max_terms,
                           o.ortho == Ortho::bcgs2 ? o.block_size : 1),
        a_(a),
        m_(m),
        sync_(o.time_split && !o.time_split_events),
        events_(o.time_split_events),
        fused_(o.mode == Mode::fused),
        t_(t) {}

  /// Whether DCGS2 joins its two reductions and its two updates (one pass
  /// over the basis each; the same bits as the separate kernels).
  bool fused() const { return fused_; }

  bool preconditioned() const { return m_ != nullptr; }
  /// The inverse diagonal when the preconditioner is point Jacobi (the
  /// fused CG and BiCGStab apply it inside their updates), else null.
  const Buffer<V>* point_diagonal() const {
    auto* j = dynamic_cast<const BlockJacobi<V>*>(m_);
    return j && j->block_size() == 1 ? &j->inverse() : nullptr;
  }

  /// Runs f and adds its time to `slot`: wall time (synchronising after f
  /// with time_split) or, with time_split_events, the device time between
  /// events recorded before and after f, added by harvest_split().
  template <class F>
  void timed(double TimeSplit::*slot, F&& f) {
    if (events_) {
      Queue& q = a_.device()->queue();
      auto e0 = q.record();
      f();
      marks_.push_back({slot, std::move(e0), q.record()});
      if (marks_.size() >= kMaxMarks) harvest_split();  // bounds the live events of long runs
      return;
    }
    auto t0 = Clock::now();
    f();
    if (sync_) this->finish();
    t_.*slot += seconds_since(t0);
    ++t_.phases;
  }
  /// time_split_events: waits for the device and adds every phase's device time.
  void harvest_split() {
    if (marks_.empty()) return;
    this->finish();
    for (const auto& m : marks_) t_.*m.slot += m.stop->ms_since(*m.start) * 1e-3;
    t_.phases += static_cast<long>(marks_.size());
    marks_.clear();
  }
  void apply_a(const Vec& x, Vec& y) {
    timed(&TimeSplit::spmv, [&] { a_.apply(x, y); });
  }
  /// z = M r, or z = r without a preconditioner.
  void precond(const Vec& r, Vec& z) {
    timed(&TimeSplit::precond, [&] {
      if (m_)
        m_->apply(r, z);
      else
        this->combine(z, 0, V(1), &r, 0, nullptr, 0, 0, nullptr);
    });
  }
  Vec from_device(const Buffer<V>& b) {
    Vec v = this->make();
    v.copy_from(b);
    return v;
  }
  void to_device(const Vec& v, Buffer<V>& out) { out.copy_from(v); }

 private:
  static constexpr std::size_t kMaxMarks = 4096;
  struct Mark {
    double TimeSplit::*slot;
    std::unique_ptr<Event> start, stop;
  };
  LinearOperator<V>& a_;
  LinearOperator<V>* m_;
  bool sync_, events_, fused_;
  TimeSplit& t_;
  std::vector<Mark> marks_;
};

template <Scalar V>
class ThesisSpace : public HostVectorOps<V> {
 public:
  using Vec = std::vector<V>;
  ThesisSpace(LinearOperator<V>& a, LinearOperator<V>* m, int max_terms, const Options&,
              TimeSplit& t)
      : HostVectorOps<V>(a.size(), max_terms),
        a_(a),
        m_(m),
        t_(t),
        in_(a.device(), a.size()),
        out_(a.device(), a.size()) {}

  template <class F>
  void timed(double TimeSplit::*slot, F&& f) {
    auto t0 = Clock::now();
    f();
    t_.*slot += seconds_since(t0);
    ++t_.phases;
  }
  bool fused() const { return false; }  // the host runs the separate kernels
  void apply_a(const Vec& x, Vec& y) { offload(a_, x, y, &TimeSplit::spmv); }
  void precond(const Vec& r, Vec& z) {
    if (m_)
      offload(*m_, r, z, &TimeSplit::precond);
    else
      timed(&TimeSplit::precond, [&] { z = r; });
  }
  Vec from_device(const Buffer<V>& b) {
    Vec v;
    timed(&TimeSplit::transfer, [&] { v = b.to_vector(); });
    return v;
  }
  void to_device(const Vec& v, Buffer<V>& out) {
    timed(&TimeSplit::transfer, [&] { out.copy_from_host(v); });
  }

 private:
  // The thesis's offload: upload, apply on the device, download.
  void offload(LinearOperator<V>& op, const Vec& x, Vec& y, double TimeSplit::*slot) {
    timed(&TimeSplit::transfer, [&] { in_.copy_from_host(x); });
    timed(slot, [&] {
      op.apply(in_, out_);
      a_.device()->queue().synchronize();
    });
    if (y.size() != x.size()) y.resize(x.size());
    timed(&TimeSplit::transfer, [&] { out_.copy_to_host(y); });
  }
  LinearOperator<V>& a_;
  LinearOperator<V>* m_;
  TimeSplit& t_;
  Buffer<V> in_, out_;
};

}  // namespace tessera::krylov::detail
