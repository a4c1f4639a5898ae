# swe: shallow-water tests (paths relative to tests/).
target_sources(tessera_tests PRIVATE swe/test_swe_thesis.cpp swe/test_swe_physical.cpp swe/test_swe_io.cpp
  swe/test_swe_distributed.cpp)

# the distributed physical model across MPI ranks: its own executable, run with
# mpirun -np 2 and -np 3 (oversubscribed, root allowed), bitwise equal to one device
if(TESSERA_HAVE_MPI)
  add_executable(tessera_swe_mpi_tests swe/test_swe_mpi.cpp)
  target_include_directories(tessera_swe_mpi_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(tessera_swe_mpi_tests PRIVATE tessera MPI::MPI_CXX tessera_flags)
  # 2 ranks x 1 part, 3 ranks x 1 part, 2 ranks x 2 parts (MPI and in-process neighbours mixed)
  foreach(cfg "2;1" "3;1" "2;2")
    list(GET cfg 0 np)
    list(GET cfg 1 local)
    add_test(NAME swe.mpi_np${np}_x${local}
             COMMAND ${MPIEXEC_EXECUTABLE} --oversubscribe ${MPIEXEC_NUMPROC_FLAG} ${np}
                     $<TARGET_FILE:tessera_swe_mpi_tests> ${local})
    set_tests_properties(swe.mpi_np${np}_x${local} PROPERTIES
                         ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMP_NUM_THREADS=1" TIMEOUT 120)
  endforeach()
endif()
if(TESSERA_SWE_NETCDF)
  set_property(SOURCE swe/test_swe_io.cpp APPEND PROPERTY COMPILE_DEFINITIONS TS_TEST_NETCDF=1)
endif()

# tessera swe on the command line: good runs, case files, bad input with its
# exit code (1 runtime, 2 usage) and message.
set(SWE_CLI_DIR ${CMAKE_CURRENT_BINARY_DIR}/swe_cli)
file(MAKE_DIRECTORY ${SWE_CLI_DIR})
file(WRITE ${SWE_CLI_DIR}/case.toml "model = \"physical\"\ncase = \"ritter\"\nnx = 100\norder = 2\nt-end = 1.0\nformat = \"vti,png\"\nevery-time = 0.5\n")
file(WRITE ${SWE_CLI_DIR}/bad_key.toml "case = \"ritter\"\nspeed = 3\n")
file(WRITE ${SWE_CLI_DIR}/truncated.asc "ncols 3\nnrows 3\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n4 5 6\n")
file(WRITE ${SWE_CLI_DIR}/bed.asc "ncols 4\nnrows 3\nxllcorner 0\nyllcorner 0\ncellsize 2\nNODATA_value -9999\n0 0 0 -9999\n0 -1 0 0\n0 0 0 0\n")
set(SWE_EXPECT ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>)
set(SWE_EXPECT_SCRIPT -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.swe_thesis COMMAND tessera_cli swe --model thesis --nx 40 --ny 30 --device cpu --out ${SWE_CLI_DIR}/thesis --format vtk,vti --every 60)
if(TESSERA_TOMLPP_DIR)  # case files need toml++
  add_test(NAME cli.swe_case_file COMMAND ${SWE_EXPECT} -DARGS=swe\;--config\;${SWE_CLI_DIR}/case.toml\;--device\;cpu\;--out\;${SWE_CLI_DIR}/toml -DEXPECT=0 -DMATCH=ritter.on.cpu ${SWE_EXPECT_SCRIPT})
endif()
add_test(NAME cli.swe_bathymetry COMMAND ${SWE_EXPECT} -DARGS=swe\;--bathymetry\;${SWE_CLI_DIR}/bed.asc\;--level\;0.5\;--t-end\;0.5\;--device\;cpu -DEXPECT=0 ${SWE_EXPECT_SCRIPT})
if(TESSERA_TOMLPP_DIR)  # case files need toml++
  add_test(NAME cli.swe_bad_case_key_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--config\;${SWE_CLI_DIR}/bad_key.toml\;--device\;cpu -DEXPECT=2 -DMATCH=bad_key.toml:2:.unknown.key ${SWE_EXPECT_SCRIPT})
endif()
add_test(NAME cli.swe_truncated_asc_exit1 COMMAND ${SWE_EXPECT} -DARGS=swe\;--bathymetry\;${SWE_CLI_DIR}/truncated.asc\;--level\;1\;--device\;cpu -DEXPECT=1 -DMATCH=truncated.asc:8:.file.ends ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_unstable_cfl_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;radial-dam\;--nx\;32\;--cfl\;1.5\;--device\;cpu -DEXPECT=2 -DMATCH=unstable ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_thesis_dry_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--model\;thesis\;--nx\;20\;--h-right\;0\;--device\;cpu -DEXPECT=2 -DMATCH=cannot.handle.dry ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_thesis_unstable_dt_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--model\;thesis\;--nx\;20\;--dt\;20\;--device\;cpu -DEXPECT=2 -DMATCH=unstable ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_blowup_exit1 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;radial-dam\;--nx\;32\;--dt\;3\;--device\;cpu\;--out\;${SWE_CLI_DIR}/bad\;--every\;1 -DEXPECT=1 -DMATCH=at.step.1.in.cell ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.bench_swe_cpu COMMAND tessera_cli bench swe --device cpu --size 48 --quick --reps 1 --warmup 1 --param thesis-n=40 --param steps=4)

# several parts in one process (x-slabs): a run with outputs, and usage errors
add_test(NAME cli.swe_three_parts COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;radial-dam\;--nx\;40\;--order\;2\;--t-end\;0.3\;--gpus\;3\;--device\;cpu\;--out\;${SWE_CLI_DIR}/parts\;--format\;vti -DEXPECT=0 -DMATCH=radial-dam.on.cpu ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_parts_too_thin_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;radial-dam\;--nx\;40\;--gpus\;21\;--device\;cpu -DEXPECT=2 -DMATCH=at.least.2.rows ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_thesis_parts_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--model\;thesis\;--nx\;20\;--gpus\;2\;--device\;cpu -DEXPECT=2 -DMATCH=only.the.physical ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.bench_swe_parts_cpu COMMAND tessera_cli bench swe --device cpu --size 48 --reps 1 --warmup 1 --param parts=1,2 --param steps=4)
