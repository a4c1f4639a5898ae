#include "sparse/storage.hpp"

#include <algorithm>
#include <initializer_list>

#include <fmt/format.h>

namespace tessera::sparse {

namespace {

template <Scalar T>
Storage account(std::string name, const std::vector<T>& values,
                std::initializer_list<const std::vector<index_t>*> indices) {
  Storage s;
  s.format = std::move(name);
  s.slots = static_cast<size64>(values.size());
  s.zero_slots = std::count(values.begin(), values.end(), T(0));
  s.value_bytes = s.slots * static_cast<size64>(sizeof(T));
  for (const auto* v : indices) s.index_bytes += static_cast<size64>(v->size() * sizeof(index_t));
  return s;
}

const char* layout_name(BlockLayout l) { return l == BlockLayout::row_major ? "" : " col-major"; }

}  // namespace

template <Scalar T>
Storage storage(const Coo<T>& a) {
  return account("COO", a.val, {&a.row, &a.col});
}
template <Scalar T>
Storage storage(const Csr<T>& a) {
  return account("CSR", a.val, {&a.row_ptr, &a.col});
}
template <Scalar T>
Storage storage(const Dia<T>& a) {
  return account("DIA", a.data, {&a.offsets});
}
template <Scalar T>
Storage storage(const Bcsr<T>& a) {
  return account(fmt::format("BCSR {}x{}{}{}", a.block.r, a.block.c, layout_name(a.block.layout),
                             a.block_row_map.empty() ? "" : " compressed"),
                 a.val, {&a.row_ptr, &a.block_row_map, &a.col});
}
template <Scalar T>
Storage storage(const GappedBcsr<T>& a) {
  return account(
      fmt::format("gapped BCSR {}x{}{}", a.block.r, a.block.c, layout_name(a.block.layout)), a.val,
      {&a.row_ptr, &a.col});
}
template <Scalar T>
Storage storage(const Ell<T>& a) {
  return account(a.subsection > 1 ? fmt::format("ELL L={}", a.subsection) : std::string("ELL"),
                 a.val, {&a.row_map, &a.col});
}
template <Scalar T>
Storage storage(const Bell<T>& a) {
  return account(fmt::format("BELL {}x{}{}", a.block.r, a.block.c,
                             a.index == BellIndex::block_row ? " block-index" : ""),
                 a.val, {&a.block_row_map, &a.col});
}
template <Scalar T>
Storage storage(const Sell<T>& a) {
  return account(fmt::format("SELL-{}-{}", a.slice_height, a.sort_window), a.val,
                 {&a.slice_ptr, &a.row_map, &a.col});
}
template <Scalar T>
Storage storage(const Hyb<T>& a) {
  Storage e = storage(a.ell), c = storage(a.coo);
  Storage s;
  s.format = fmt::format("HYB (ELL width {})", a.ell.width);
  s.slots = e.slots + c.slots;
  s.zero_slots = e.zero_slots + c.zero_slots;
  s.value_bytes = e.value_bytes + c.value_bytes;
  s.index_bytes = e.index_bytes + c.index_bytes;
  return s;
}

#define TESSERA_INSTANTIATE_FORMAT(Format, T) template Storage storage(const Format<T>&);
#define TESSERA_INSTANTIATE(T) TESSERA_SPARSE_FOR_EACH_FORMAT(TESSERA_INSTANTIATE_FORMAT, T)
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE
#undef TESSERA_INSTANTIATE_FORMAT

}  // namespace tessera::sparse
