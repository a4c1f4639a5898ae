# swe: shallow-water tests (paths relative to tests/).
target_sources(tessera_tests PRIVATE swe/test_swe_thesis.cpp swe/test_swe_physical.cpp swe/test_swe_io.cpp)
