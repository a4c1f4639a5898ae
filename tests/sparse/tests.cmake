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
