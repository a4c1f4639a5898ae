# sparse, device side: SpMV kernels on every device, the spmv CLI (paths
# relative to tests/).
target_sources(tessera_tests PRIVATE sparse/test_spmv_device.cpp)
add_test(NAME cli.sparse_spmv_trace COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;spmv\;--generate\;trace:3x5x4,blocks=2\;--kernel\;bcsr-warp\;--device\;cpu\;--reps\;2
         -DEXPECT=0 -DMATCH=checked.against.the.host.reference -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_spmv_laplace_json COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;spmv\;--generate\;laplace7:9x8x7\;--kernel\;sell\;--precision\;double\;--reps\;2\;--json
         -DEXPECT=0 -DMATCH=verified.:.true -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_spmv_bad_kernel_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;spmv\;--generate\;laplace7:4\;--kernel\;bcsr-v9 -DEXPECT=2 -DMATCH=unknown.SpMV.kernel
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_spmv_format_mismatch_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;spmv\;--generate\;laplace7:4\;--kernel\;sell\;--format\;csr -DEXPECT=2 -DMATCH=works.on
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_spmv_missing_file_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;spmv\;--matrix\;${CMAKE_CURRENT_BINARY_DIR}/no_such.mtx -DEXPECT=1 -DMATCH=cannot.open
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
# bench spmv on the CPU: the modern section's parameter parsing (csr_chains,
# kernels) and the rows, on the smallest thesis case with two kernels
add_test(NAME cli.bench_spmv_cpu COMMAND tessera_cli bench spmv --device cpu --quick --reps 1 --warmup 0
         --param cases=1 --param parts=modern --param kernels=csr-vector,bell-bi --param csr_chains=2)
set_tests_properties(cli.bench_spmv_cpu PROPERTIES PASS_REGULAR_EXPRESSION "10x40x20 bell-bi.*best: 10x40x20")
add_test(NAME cli.bench_spmv_bad_chains_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=bench\;spmv\;--device\;cpu\;--quick\;--param\;csr_chains=3\;--param\;parts=modern\;--param\;cases=1\;--param\;kernels=csr-vector
         -DEXPECT=2 -DMATCH=power.of.two -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
