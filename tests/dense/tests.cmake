# dense: every operation on every device against the CPU sequential reference
# (included from tests/CMakeLists.txt; paths relative to tests/).
target_sources(tessera_tests PRIVATE dense/test_dense.cpp dense/test_matmul.cpp)
