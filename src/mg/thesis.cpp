#include "mg/thesis.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "dense/dense.hpp"

namespace tessera::mg {

namespace {
bool is_pow2_minus_1(long m) { return m >= 1 && ((m + 1) & m) == 0; }
}  // namespace

template <class T>
ThesisMultigrid<T>::ThesisMultigrid(std::shared_ptr<Device> device, long w, long h, int nu)
    : device_(std::move(device)), nu_(nu) {
  if (!is_pow2_minus_1(w) || !is_pow2_minus_1(h))
    throw UsageError("thesis mode needs grid sides of the form 2^k - 1 (got " + std::to_string(w) +
                     " x " + std::to_string(h) + "); use --mode resident for other sizes");
  if (nu < 1) throw UsageError("thesis mode needs nu >= 1 post-smoothing steps");
  // m_{n+1} = floor(m_n / 2) while both halves are >= 1 (cpu_multigrid_help)
  for (long cw = w, ch = h;; cw /= 2, ch /= 2) {
    Level L{Dims{cw, ch, 1, 2}, {}, {}, {}};
    for (Buffer<T>* b : {&L.b, &L.xs, &L.xd}) {
      *b = Buffer<T>(device_, L.d.storage());
      dense::fill(*b, T(0));
    }
    levels_.push_back(std::move(L));
    if (cw / 2 < 1 || ch / 2 < 1) break;
  }
}

template <class T>
void ThesisMultigrid<T>::jacobi_steps(Level& L, int steps) {
  Queue& q = device_->queue();
  for (int s = 0; s < steps; ++s) {
    dispatch(*device_, [&](auto tag) { kernels::thesis_jacobi(tag, q, L.d, L.b, L.xs, L.xd); });
    std::swap(L.xs, L.xd);  // swap(&x_off0, &x_off1)
  }
}

template <class T>
void ThesisMultigrid<T>::cycle(std::size_t n) {
  Level& L = levels_[n];
  Queue& q = device_->queue();
  if (n + 1 == levels_.size()) {  // coarsest: clear, one Jacobi step from 0 gives x = b/4
    dense::fill(L.xs, T(0));
    jacobi_steps(L, 1);
    return;
  }
  Level& C = levels_[n + 1];
  dispatch(*device_, [&](auto tag) {
    if (n == 0) {  // residual into the X-destination array, then (2.4)
      kernels::thesis_residual(tag, q, L.d, L.b, L.xs, L.xd);
      kernels::thesis_restrict(tag, q, L.d, L.xd, C.d, C.b);
    } else {  // x = 0 here, so d = b: restriction applied to b directly
      kernels::thesis_restrict(tag, q, L.d, L.b, C.d, C.b);
    }
  });
  cycle(n + 1);
  dispatch(*device_, [&](auto tag) {
    kernels::thesis_prolong(tag, q, L.d, L.xs, C.d, C.xs, /*accumulate=*/n == 0);
  });
  jacobi_steps(L, nu_);
}

template <class T>
void ThesisMultigrid<T>::cycle() {
  cycle(0);
}

template <class T>
void ThesisMultigrid<T>::smooth(int steps) {
  jacobi_steps(levels_[0], steps);
}

template <class T>
double ThesisMultigrid<T>::residual_norm() {
  Level& L = levels_[0];
  Buffer<T> r(device_, L.d.storage());
  dense::fill(r, T(0));
  dispatch(*device_,
           [&](auto tag) { kernels::thesis_residual(tag, device_->queue(), L.d, L.b, L.xs, r); });
  return static_cast<double>(dense::nrm2(r));
}

template class ThesisMultigrid<float>;
template class ThesisMultigrid<double>;

}  // namespace tessera::mg
