# sparse: formats, converters, Matrix Market, the TRACE generator, SpMV
# kernels on every device, the sparse CLI (paths relative to tests/).
target_sources(tessera_tests PRIVATE sparse/test_sparse_convert.cpp sparse/test_sparse_thesis_examples.cpp
               sparse/test_sparse_limits.cpp sparse/test_matrix_market.cpp sparse/test_trace_generator.cpp
               sparse/test_spmv_device.cpp sparse/test_matrix_families.cpp
               sparse/test_kernel_choice.cpp sparse/test_device_product.cpp
               sparse/test_hermitian_defect.cpp)
add_test(NAME cli.sparse_spmv_trace COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;spmv\;--generate\;trace:3x5x4,blocks=2\;--kernel\;bcsr-warp\;--device\;cpu\;--reps\;2
         -DEXPECT=0 -DMATCH=checked.against.the.host.reference -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_spmv_laplace_json COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;spmv\;--generate\;laplace7:9x8x7\;--kernel\;sell\;--precision\;double\;--reps\;2\;--json
         -DEXPECT=0 -DMATCH=verified.:.true -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_spmv_auto_block_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;spmv\;--generate\;fem3:3\;--block-rows\;2\;--device\;cpu -DEXPECT=2
         -DMATCH=auto.chooses.the.block.size -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
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

# Work sized by the entries, not the declared size (issue 40, item 8): a
# 3-line file declaring 2^31-1 x 2^31-1 with one entry. `sparse info` describes
# it from its entries (it took 29 s and 8.6 GB before failing); spmv, solve and
# convert, whose row pointers and vectors do follow the declared size, refuse
# it up front with the bytes they would need (TESSERA_HOST_MEMORY makes the
# limit the same on every machine; without it MemAvailable is the limit).
set(SPARSE_HUGE ${CMAKE_CURRENT_BINARY_DIR}/sparse_declared_huge.mtx)
file(WRITE ${SPARSE_HUGE} "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 1\n1 1 1.0\n")
add_test(NAME cli.sparse_info_declared_huge COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;info\;${SPARSE_HUGE}
         -DEXPECT=0 "-DMATCH=2147483647 x 2147483647, 1 stored entries.*length min 0, mean 0.00, max 1.*2147483646 empty.*bandwidth 0, 1 diagonals.*COO"
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_spmv_declared_huge_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;spmv\;--matrix\;${SPARSE_HUGE}\;--device\;cpu
         -DEXPECT=1 "-DMATCH=sparse_declared_huge.mtx: the declared 2147483647 x 2147483647 matrix .1 entries.* need [0-9.]+ GiB .[0-9]+ bytes., but only 1.00 GiB"
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_convert_declared_huge_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;convert\;${SPARSE_HUGE}\;${CMAKE_CURRENT_BINARY_DIR}/sparse_declared_huge_out.mtx
         -DEXPECT=1 "-DMATCH=sparse_declared_huge.mtx: converting the declared 2147483647 x 2147483647 matrix.* need [0-9.]+ GiB"
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.solve_declared_huge_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=solve\;--matrix\;${SPARSE_HUGE}\;--device\;cpu
         -DEXPECT=1 "-DMATCH=sparse_declared_huge.mtx: solving the declared 2147483647 x 2147483647 system.* need [0-9.]+ GiB"
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
set_tests_properties(cli.sparse_info_declared_huge cli.sparse_spmv_declared_huge_exit1
                     cli.sparse_convert_declared_huge_exit1 cli.solve_declared_huge_exit1 PROPERTIES TIMEOUT 20)
set_tests_properties(cli.sparse_spmv_declared_huge_exit1 cli.sparse_convert_declared_huge_exit1
                     cli.solve_declared_huge_exit1 PROPERTIES ENVIRONMENT TESSERA_HOST_MEMORY=1G)

# Compression (issue 40, item 11): .bz2 is written and read where libbz2 was
# found, refused by name otherwise; other compressed or binary data is named,
# not dumped; an unsupported compression suffix on output is a usage error
# before anything is read or written.
set(SPARSE_BZ2 ${CMAKE_CURRENT_BINARY_DIR}/sparse_cli_trace.mtx.bz2)
if(TESSERA_HAVE_BZIP2)
  add_test(NAME cli.sparse_generate_bz2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
           -DARGS=sparse\;generate\;trace:3x5x4,blocks=2\;${SPARSE_BZ2} -DEXPECT=0 -DMATCH=wrote
           -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
  set_tests_properties(cli.sparse_generate_bz2 PROPERTIES FIXTURES_SETUP sparse_bz2)
  add_test(NAME cli.sparse_info_bz2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
           -DARGS=sparse\;info\;${SPARSE_BZ2} -DEXPECT=0 -DMATCH=BELL -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
  set_tests_properties(cli.sparse_info_bz2 PROPERTIES FIXTURES_REQUIRED sparse_bz2)
else()
  add_test(NAME cli.sparse_generate_bz2_refused_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
           -DARGS=sparse\;generate\;trace:3x5x4,blocks=2\;${SPARSE_BZ2} -DEXPECT=2
           "-DMATCH=bzip2-compressed files are not supported" -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
endif()
set(SPARSE_ZIP ${CMAKE_CURRENT_BINARY_DIR}/sparse_zip.mtx)
string(ASCII 3 4 20 ZIP_MAGIC_TAIL)
file(WRITE ${SPARSE_ZIP} "PK${ZIP_MAGIC_TAIL} rest of a zip archive")
add_test(NAME cli.sparse_info_zip_named_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;info\;${SPARSE_ZIP} -DEXPECT=1
         "-DMATCH=sparse_zip.mtx: zip archive data, not a text file" -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_convert_xz_out_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;convert\;${CMAKE_CURRENT_BINARY_DIR}/no_such_input.mtx\;${CMAKE_CURRENT_BINARY_DIR}/never.mtx.xz
         -DEXPECT=2 "-DMATCH=never.mtx.xz: xz-compressed files are not supported" -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)

# tessera sparse: generate a small TRACE-like system, inspect it, convert it; bad input exits 1 or 2.
set(SPARSE_CLI_FILE ${CMAKE_CURRENT_BINARY_DIR}/sparse_cli_trace.mtx.gz)
add_test(NAME cli.sparse_generate COMMAND tessera_cli sparse generate trace:3x5x4,blocks=2 ${SPARSE_CLI_FILE})
set_tests_properties(cli.sparse_generate PROPERTIES FIXTURES_SETUP sparse_cli)
add_test(NAME cli.sparse_info COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli> -DARGS=sparse\;info\;${SPARSE_CLI_FILE} -DEXPECT=0 -DMATCH=BELL
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_convert COMMAND tessera_cli sparse convert ${SPARSE_CLI_FILE} ${CMAKE_CURRENT_BINARY_DIR}/sparse_cli_trace.mtx --symmetry general)
add_test(NAME cli.sparse_convert_not_symmetric_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli> -DARGS=sparse\;convert\;${SPARSE_CLI_FILE}\;${CMAKE_CURRENT_BINARY_DIR}/sparse_cli_sym.mtx\;--symmetry\;symmetric -DEXPECT=1 -DMATCH=cannot.write.as.symmetric
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
set_tests_properties(cli.sparse_info cli.sparse_convert cli.sparse_convert_not_symmetric_exit1 PROPERTIES FIXTURES_REQUIRED sparse_cli)
# sparse generate writes the real families too (in double unless told):
# the file holds the family's pattern, and --grid-block is TRACE's alone
set(SPARSE_FAMILY_FILE ${CMAKE_CURRENT_BINARY_DIR}/sparse_cli_convdiff.mtx)
add_test(NAME cli.sparse_generate_family COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;generate\;convdiff2d:6,peclet=10\;${SPARSE_FAMILY_FILE} -DEXPECT=0
         -DMATCH=36.x.36,.156.nonzeros -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
set_tests_properties(cli.sparse_generate_family PROPERTIES FIXTURES_SETUP sparse_family)
add_test(NAME cli.sparse_generate_family_info COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;info\;${SPARSE_FAMILY_FILE} -DEXPECT=0 -DMATCH=real.general
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
set_tests_properties(cli.sparse_generate_family_info PROPERTIES FIXTURES_REQUIRED sparse_family)
add_test(NAME cli.sparse_generate_family_grid_block_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;generate\;laplace7:4\;${CMAKE_CURRENT_BINARY_DIR}/never.mtx\;--grid-block\;1
         -DEXPECT=2 -DMATCH=--grid-block.1:.only.for.TRACE -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
# an output name that is no file: refused before anything is generated
add_test(NAME cli.sparse_generate_stdout_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;generate\;laplace7:4\;- -DEXPECT=2 "-DMATCH=out '-': standard output is not supported"
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_bad_case_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli> -DARGS=sparse\;generate\;bogus:1x2x3\;${CMAKE_CURRENT_BINARY_DIR}/never.mtx -DEXPECT=2 -DMATCH=unknown.kind
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_missing_file_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli> -DARGS=sparse\;info\;${CMAKE_CURRENT_BINARY_DIR}/no_such.mtx -DEXPECT=1 -DMATCH=cannot.open
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
# spmv of a file runs in double unless --precision says otherwise
add_test(NAME cli.sparse_spmv_file_double COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;spmv\;--matrix\;${CMAKE_CURRENT_SOURCE_DIR}/krylov/data/convdiff144.mtx\;--device\;cpu\;--reps\;1
         -DEXPECT=0 -DMATCH=144.x.144.*double.values -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.sparse_spmv_file_single COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=sparse\;spmv\;--matrix\;${CMAKE_CURRENT_SOURCE_DIR}/krylov/data/convdiff144.mtx\;--precision\;single\;--device\;cpu\;--reps\;1
         -DEXPECT=0 -DMATCH=144.x.144.*float.values -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
