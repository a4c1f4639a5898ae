// The device's sparse product (device_product.hpp): products counted on the
// host, rows in batches of bounded scratch, each batch's rows accumulated
// and sorted on the device (spgemm_rows), compacted (spgemm_copy) and read
// back into C.
#include "sparse/device_product.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "sparse/device_upload.hpp"
#include "sparse/kernels/spmv_kernels.hpp"
#include "sparse/product.hpp"

namespace tessera::sparse {

namespace {

/// The next power of two >= 2 n (0 for n = 0): a row's hash table.
size64 table_slots(size64 n) {
  if (n == 0) return 0;
  size64 s = 1;
  while (s < 2 * n) s *= 2;
  return s;
}

template <class T>
std::size_t default_batch(const DeviceInfo& info) {
  const std::uint64_t mem = info.global_mem_bytes ? info.global_mem_bytes : (2ull << 30);
  std::uint64_t bytes = std::min<std::uint64_t>(mem / 8, 1ull << 30);
  if (info.max_alloc_bytes) bytes = std::min<std::uint64_t>(bytes, info.max_alloc_bytes / 2);
  // a product's scratch: its column and value, and up to 4 table entries
  return std::max<std::size_t>(1, bytes / (sizeof(index_t) + sizeof(T) + 4 * sizeof(index_t)));
}

/// A buffer of n elements (at least one: no zero-sized allocation).
template <class E>
Buffer<E> scratch(const std::shared_ptr<Device>& d, size64 n) {
  return Buffer<E>(d, static_cast<std::size_t>(std::max<size64>(n, 1)));
}

}  // namespace

template <Scalar T>
Csr<T> multiply(const std::shared_ptr<Device>& device, const Csr<T>& a, const Csr<T>& b,
                std::size_t batch_products) {
  Csr<T> c = product_shape(a, b);
  const auto rows = static_cast<std::size_t>(a.rows);
  c.row_ptr.assign(rows + 1, 0);
  if (rows == 0) return c;
  // products per row, on the host: what each row's scratch must hold
  std::vector<size64> products(rows);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < rows; ++i) {
    size64 n = 0;
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      n += static_cast<size64>(b.row_ptr[a.col[p] + 1] - b.row_ptr[a.col[p]]);
    products[i] = n;
  }
  const std::size_t budget = batch_products ? batch_products : default_batch<T>(device->info());
  Queue& q = device->queue();
  const auto arp = upload_nonempty(device, a.row_ptr);
  const auto acol = upload_nonempty(device, a.col);
  const auto aval = upload_nonempty(device, a.val);
  const auto brp = upload_nonempty(device, b.row_ptr);
  const auto bcol = upload_nonempty(device, b.col);
  const auto bval = upload_nonempty(device, b.val);
  size64 total = 0;  // C's entries so far
  for (std::size_t r0 = 0; r0 < rows;) {
    // a batch: rows r0 .. r1 - 1, at least one, their products within budget
    std::vector<long> off{0}, toff{0};
    std::size_t r1 = r0;
    while (r1 < rows && (r1 == r0 || static_cast<std::size_t>(off.back()) +
                                             static_cast<std::size_t>(products[r1]) <=
                                         budget)) {
      off.push_back(off.back() + static_cast<long>(products[r1]));
      toff.push_back(toff.back() + static_cast<long>(table_slots(products[r1])));
      ++r1;
    }
    const std::size_t n = r1 - r0;
    std::vector<index_t> cnt(n);
    // an allocation that fails names the batch: its rows, products and bytes
    auto named = [&](std::uint64_t need) {
      return OutOfMemory(fmt::format("{} for a sparse product's rows {}..{} ({} products)",
                                     device->info().id, r0, r1 - 1, off.back()),
                         need, device->info().global_mem_bytes);
    };
    Buffer<index_t> scol, table, dcnt;
    Buffer<T> sval;
    try {
      table = scratch<index_t>(device, static_cast<size64>(toff.back()));
      scol = scratch<index_t>(device, static_cast<size64>(off.back()));
      sval = scratch<T>(device, static_cast<size64>(off.back()));
      dcnt = scratch<index_t>(device, n);
    } catch (const OutOfMemory&) {
      throw named(static_cast<std::uint64_t>(toff.back()) * sizeof(index_t) +
                  static_cast<std::uint64_t>(off.back()) * (sizeof(index_t) + sizeof(T)));
    }
    const auto doff = upload_nonempty(device, off), dtoff = upload_nonempty(device, toff);
    dispatch(*device, [&](auto tag) {
      kernels::spgemm_rows<T>(tag, q, static_cast<ts_size>(n), static_cast<long>(r0), arp, acol,
                              aval, brp, bcol, bval, doff, dtoff, table, scol, sval, dcnt);
    });
    dcnt.copy_to_host(std::span<index_t>(cnt.data(), cnt.size()));
    std::vector<long> crp(n + 1, 0);
    for (std::size_t r = 0; r < n; ++r) crp[r + 1] = crp[r] + cnt[r];
    const auto nnz = static_cast<size64>(crp[n]);
    const size64 end = total + nnz;
    to_index(end, "entries of a sparse product");  // refused past the 32-bit range
    Buffer<index_t> ccol;
    Buffer<T> cval;
    try {
      ccol = scratch<index_t>(device, nnz);
      cval = scratch<T>(device, nnz);
    } catch (const OutOfMemory&) {
      throw named(nnz * (sizeof(index_t) + sizeof(T)));
    }
    const auto dcrp = upload_nonempty(device, crp);
    dispatch(*device, [&](auto tag) {
      kernels::spgemm_copy<T>(tag, q, static_cast<ts_size>(n), doff, dcrp, scol, sval, ccol, cval);
    });
    c.col.resize(static_cast<std::size_t>(end));
    c.val.resize(static_cast<std::size_t>(end));
    if (nnz) {
      ccol.device().queue().read(ccol.handle(), 0, c.col.data() + total, nnz * sizeof(index_t),
                                 true);
      cval.device().queue().read(cval.handle(), 0, c.val.data() + total, nnz * sizeof(T), true);
    }
    for (std::size_t r = 0; r < n; ++r)
      c.row_ptr[r0 + r + 1] = static_cast<index_t>(total + static_cast<size64>(crp[r + 1]));
    total = end;
    r0 = r1;
  }
  return c;
}

#define TESSERA_INSTANTIATE(T)                                                              \
  template Csr<T> multiply<T>(const std::shared_ptr<Device>&, const Csr<T>&, const Csr<T>&, \
                              std::size_t);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::complex<float>)
TESSERA_INSTANTIATE(std::complex<double>)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
