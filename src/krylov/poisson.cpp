// Matrix-free Poisson operator on mg's halo layout (see poisson.hpp).
#include "krylov/poisson.hpp"

#include "core/dispatch.hpp"
#include "dense/dense.hpp"
#include "mg/kernels/mg_kernels.hpp"

namespace tessera::krylov {

template <class T>
PoissonOperator<T>::PoissonOperator(std::shared_ptr<Device> device, const mg::Dims& d)
    : device_(std::move(device)), d_(d), zero_(device_, d.storage()) {
  dense::fill(zero_, T(0));
}

template <class T>
void PoissonOperator<T>::apply(const Buffer<T>& x, Buffer<T>& y) {
  if (x.size() != d_.storage() || y.size() != d_.storage())
    throw Error("krylov: Poisson operator on " + std::to_string(d_.storage()) +
                " halo-layout entries, got x " + std::to_string(x.size()) + ", y " +
                std::to_string(y.size()));
  dense::fill(y, T(0));  // the halo, which the residual kernel leaves alone
  dispatch(*device_,
           [&](auto tag) { mg::kernels::residual(tag, device_->queue(), d_, zero_, x, y); });
  dense::scale(T(-1), y);
}

template class PoissonOperator<float>;
template class PoissonOperator<double>;

}  // namespace tessera::krylov
