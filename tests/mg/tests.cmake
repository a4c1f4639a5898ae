# mg: thesis-exact, device-resident and streaming (out-of-core) solvers
# (included from tests/CMakeLists.txt; paths relative to tests/).
target_sources(tessera_tests PRIVATE mg/test_mg_thesis.cpp mg/test_mg_solver.cpp mg/test_mg_streaming.cpp)
# The CLI: a streamed solve under a budget a quarter of the problem, and a
# budget too small for one tile (usage error, exit 2, says so).
add_test(NAME cli.mg_streaming_cpu COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg\;--mode\;streaming\;--n\;127\;--post\;2\;--precision\;float\;--budget\;80K\;--queues\;3\;--tile\;37\;--max-cycles\;3\;--device\;cpu
         -DEXPECT=0 -DMATCH=streaming.V.0,2.,.3.cycles -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
# The smoother with the thesis's row cache (on the first OpenCL device where
# the build has OpenCL: PoCL in CI); --row-cache outside streaming is a usage
# error.
if(TESSERA_HAVE_OPENCL)
  set(MG_ROW_CACHE_DEVICE opencl:0:0)
else()
  set(MG_ROW_CACHE_DEVICE cpu)
endif()
add_test(NAME cli.mg_streaming_row_cache COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg\;--mode\;streaming\;--n\;255\;--post\;2\;--precision\;float\;--tile\;140\;--max-cycles\;2\;--row-cache\;--device\;${MG_ROW_CACHE_DEVICE}
         -DEXPECT=0 -DMATCH=smoother.with.the.row.cache -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.mg_row_cache_outside_streaming_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg\;--mode\;thesis\;--n\;15\;--row-cache\;--device\;cpu
         -DEXPECT=2 -DMATCH=--row-cache.is.an.option.of.--mode.streaming -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.mg_host_coarse_outside_resident_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg\;--mode\;thesis\;--n\;15\;--host-coarse\;27\;--device\;cpu
         -DEXPECT=2 -DMATCH=--host-coarse.is.an.option.of.--mode.resident -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.mg_restriction_outside_resident_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg\;--mode\;thesis\;--n\;15\;--restriction\;all\;--device\;cpu
         -DEXPECT=2 -DMATCH=--restriction.is.an.option.of.--mode.resident -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.mg_restriction_unknown_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg\;--dim\;3\;--n\;15\;--restriction\;black\;--device\;cpu
         -DEXPECT=2 -DMATCH=restriction -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.mg_host_coarse_negative_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg\;--dim\;3\;--n\;15\;--host-coarse\;-5\;--device\;cpu
         -DEXPECT=2 -DMATCH=host-coarse -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.mg_streaming_budget_too_small_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg\;--mode\;streaming\;--n\;63\;--budget\;100\;--device\;cpu
         -DEXPECT=2 -DMATCH=too.small.for.even.one.tile -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.mg_streaming_bad_budget_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg\;--mode\;streaming\;--n\;63\;--budget\;12Q\;--device\;cpu
         -DEXPECT=2 -DMATCH=--budget -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
# --out: the solution as VTK image data (resident 3D) and as .npy (thesis);
# another extension is a usage error before anything runs.
add_test(NAME cli.mg_out_vti COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg|--dim|3|--n|15|--rhs|manufactured|--device|cpu|--out|${CMAKE_BINARY_DIR}/mg_out_u.vti
         -DEXPECT=0 -DEXISTS=${CMAKE_BINARY_DIR}/mg_out_u.vti -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
add_test(NAME cli.mg_out_npy_thesis COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg|--mode|thesis|--n|31|--max-cycles|2|--device|cpu|--out|${CMAKE_BINARY_DIR}/mg_out_u.npy
         -DEXPECT=0 -DVALID_NPY=${CMAKE_BINARY_DIR}/mg_out_u.npy -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
add_test(NAME cli.mg_out_bad_extension_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg|--n|15|--device|cpu|--out|${CMAKE_BINARY_DIR}/mg_out_u.txt
         -DEXPECT=2 -DMATCH=.npy.or.a..vti -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
# Options of another mode are refused (not silently ignored); a right-hand
# side with a NaN is an error naming the file and the index.
add_test(NAME cli.mg_thesis_tol_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg|--mode|thesis|--n|15|--tol|1e-6|--device|cpu
         -DEXPECT=2 -DMATCH=--tol.is.an.option.of.--mode.resident -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
add_test(NAME cli.mg_resident_budget_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg|--n|15|--budget|1M|--device|cpu
         -DEXPECT=2 -DMATCH=--budget.is.an.option.of.--mode.streaming -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
# --rhs-file alone selects the file (this one's NaN is reported: it was read);
# with another --rhs it is a usage error, not a silent random right-hand side
add_test(NAME cli.mg_rhs_file_selects_it_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg|--mode|thesis|--n|3|--rhs-file|${CMAKE_CURRENT_SOURCE_DIR}/mg/data/rhs3_nan.npy|--device|cpu
         -DEXPECT=1 -DMATCH=rhs3_nan.npy:.value.nan.*index.5.*not.finite -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
add_test(NAME cli.mg_rhs_file_with_random_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg|--mode|thesis|--n|3|--rhs|random|--rhs-file|${CMAKE_CURRENT_SOURCE_DIR}/mg/data/rhs3_nan.npy|--device|cpu
         -DEXPECT=2 -DMATCH=--rhs-file.*rhs3_nan.npy.gives.the.right-hand.side,.--rhs.random.another -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
add_test(NAME cli.mg_rhs_nan_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=mg|--mode|thesis|--n|3|--rhs|file|--rhs-file|${CMAKE_CURRENT_SOURCE_DIR}/mg/data/rhs3_nan.npy|--device|cpu
         -DEXPECT=1 -DMATCH=rhs3_nan.npy:.value.nan.*index.5.*not.finite -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
# bench mg on a small problem: the streaming rows raise the budget when a
# quarter of the problem cannot hold one tile with nu = 16's halo (it used
# to stop with "too small for even one tile")
add_test(NAME cli.bench_mg_small_cpu COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=bench\;mg\;--device\;cpu\;--size\;63\;--reps\;1\;--warmup\;0
         -DEXPECT=0 -DMATCH=streaming.10.x.V.0,16..staged -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
# bench mg-kernels --param rows=REGEX: only the matching rows (and the copy)
# are timed; a filter matching no row is a usage error
add_test(NAME cli.bench_mg_kernels_rows_filter COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=bench\;mg-kernels\;--device\;cpu\;--size\;15\;--reps\;1\;--warmup\;0\;--param\;rows=^split:.one.colour$
         -DEXPECT=0 "-DMATCH=native_copy.*split: one colour [|]" "-DNOMATCH=V[(]1,1[)]|fused|restriction"
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.bench_mg_kernels_rows_no_match_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=bench\;mg-kernels\;--device\;cpu\;--size\;15\;--reps\;1\;--warmup\;0\;--param\;rows=no.such.row
         -DEXPECT=2 -DMATCH=matched.no.row -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
# bench mg --param streaming=0 --param n3d=N: no streaming rows, the 3D rows at N
add_test(NAME cli.bench_mg_no_streaming_cpu COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=bench\;mg\;--device\;cpu\;--size\;63\;--param\;n3d=15\;--param\;streaming=0\;--reps\;1\;--warmup\;0
         -DEXPECT=0 "-DMATCH=3D V[(]1,1[)] rbgs [|] double [|] 15 [|]" -DNOMATCH=streaming -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
# bench parameters are checked: a number that is not one, a flag that is not 0 or 1
add_test(NAME cli.bench_mg_bad_n3d_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=bench\;mg\;--device\;cpu\;--size\;15\;--param\;n3d=abc
         -DEXPECT=2 -DMATCH=--param.n3d=abc:.expected.an.integer -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.bench_mg_bad_flag_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=bench\;mg\;--device\;cpu\;--size\;15\;--param\;streaming=yes
         -DEXPECT=2 -DMATCH=--param.streaming=yes:.expected.0.or.1 -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
