# amg: setup pieces against dense references, the cycle against a host
# cycle, convergence of each matrix type on every device, the CLI.
target_sources(tessera_tests PRIVATE amg/test_amg_setup.cpp amg/test_amg_solve.cpp)
