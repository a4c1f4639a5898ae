# swe: shallow-water tests (paths relative to tests/).
target_sources(tessera_tests PRIVATE swe/test_swe_thesis.cpp swe/test_swe_physical.cpp swe/test_swe_io.cpp
  swe/test_swe_distributed.cpp swe/test_swe_checkpoint.cpp swe/test_swe_checkpoint_format.cpp
  swe/test_swe_ieee_fast.cpp swe/test_swe_forcing.cpp swe/test_swe_gdal.cpp swe/test_swe_section.cpp)
if(TESSERA_SWE_GDAL)
  find_package(GDAL CONFIG REQUIRED)
  target_link_libraries(tessera_tests PRIVATE GDAL::GDAL)
  set_property(SOURCE swe/test_swe_gdal.cpp APPEND PROPERTY COMPILE_DEFINITIONS TS_TEST_GDAL=1)
endif()

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
  set_property(SOURCE swe/test_swe_io.cpp swe/test_swe_forcing.cpp APPEND PROPERTY COMPILE_DEFINITIONS
               TS_TEST_NETCDF=1)
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
add_test(NAME cli.swe_case_file COMMAND ${SWE_EXPECT} -DARGS=swe\;--config\;${SWE_CLI_DIR}/case.toml\;--device\;cpu\;--out\;${SWE_CLI_DIR}/toml -DEXPECT=0 -DMATCH=ritter.on.cpu ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_bathymetry COMMAND ${SWE_EXPECT} -DARGS=swe\;--bathymetry\;${SWE_CLI_DIR}/bed.asc\;--level\;0.5\;--t-end\;0.5\;--device\;cpu -DEXPECT=0 ${SWE_EXPECT_SCRIPT})
# the prefetch distance of the shared-face update: a malformed value is a
# usage error naming it (the OpenCL launcher reads it, PoCL here; the bitwise
# tests run with the default distance)
if(TESSERA_HAVE_OPENCL)
  add_test(NAME cli.swe_bad_prefetch_env COMMAND ${SWE_EXPECT} -DARGS=swe\;--model\;physical\;--case\;ritter\;--nx\;40\;--t-end\;0.1\;--device\;opencl:0:0
           -DEXPECT=2 -DMATCH=TESSERA_SWE_PREFETCH=5x:.expected.an.integer.from.0.to.64 ${SWE_EXPECT_SCRIPT})
  set_tests_properties(cli.swe_bad_prefetch_env PROPERTIES ENVIRONMENT TESSERA_SWE_PREFETCH=5x)
endif()
# the bathymetry sets the grid: another --nx, or a level file on another grid, is a usage error
file(WRITE ${SWE_CLI_DIR}/level_shifted.asc "ncols 4\nnrows 3\nxllcorner 1\nyllcorner 0\ncellsize 2\n1 1 1 1\n1 1 1 1\n1 1 1 1\n")
add_test(NAME cli.swe_bathymetry_other_nx_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--bathymetry\;${SWE_CLI_DIR}/bed.asc\;--level\;0.5\;--nx\;8\;--device\;cpu -DEXPECT=2 -DMATCH=bed.asc.is.4x3.cells ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_level_file_other_grid_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--bathymetry\;${SWE_CLI_DIR}/bed.asc\;--level-file\;${SWE_CLI_DIR}/level_shifted.asc\;--device\;cpu -DEXPECT=2 -DMATCH=level_shifted.asc.*does.not.lie.on.the.bathymetry.s.grid ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_bad_case_key_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--config\;${SWE_CLI_DIR}/bad_key.toml\;--device\;cpu -DEXPECT=2 -DMATCH=bad_key.toml:2:.unknown.key ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_truncated_asc_exit1 COMMAND ${SWE_EXPECT} -DARGS=swe\;--bathymetry\;${SWE_CLI_DIR}/truncated.asc\;--level\;1\;--device\;cpu -DEXPECT=1 -DMATCH=truncated.asc:8:.file.ends ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_unstable_cfl_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;radial-dam\;--nx\;32\;--cfl\;1.5\;--device\;cpu -DEXPECT=2 -DMATCH=unstable ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_thesis_dry_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--model\;thesis\;--nx\;20\;--h-right\;0\;--device\;cpu -DEXPECT=2 -DMATCH=cannot.handle.dry ${SWE_EXPECT_SCRIPT})
# the thesis model has no device health flags: its fields are checked where
# they are downloaded (outputs, checkpoints, the end); a depth gone negative
# at step 10 is reported with the step range and the cell, exit 1
add_test(NAME cli.swe_thesis_blowup_exit1 COMMAND ${SWE_EXPECT} -DARGS=swe\;--model\;thesis\;--nx\;50\;--h-left\;1000\;--h-right\;1\;--dt\;2.2\;--t-end\;200\;--every\;5\;--device\;cpu\;--out\;${SWE_CLI_DIR}/thesis_bad\;--format\;vti
         -DEXPECT=1 -DMATCH=diverged.between.step.5.and.step.10:.a.depth.<=.0.*in.cell..14,.0..*step.5.was.the.last.one.checked.good ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_thesis_unstable_dt_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--model\;thesis\;--nx\;20\;--dt\;20\;--device\;cpu -DEXPECT=2 -DMATCH=unstable ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_blowup_exit1 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;radial-dam\;--nx\;32\;--dt\;3\;--device\;cpu\;--out\;${SWE_CLI_DIR}/bad\;--every\;1 -DEXPECT=1 -DMATCH=at.step.1.in.cell ${SWE_EXPECT_SCRIPT})
# sources (swe/forcing.hpp): a rain, Green-Ampt and inflow run reports its
# mass balance; bad series and options name the file:line or the value
file(WRITE ${SWE_CLI_DIR}/rain.csv "time (s),intensity (mm/h)\n0,40\n0.2,80\n0.4,0\n5,0\n")
file(WRITE ${SWE_CLI_DIR}/q.csv "# hydrograph\n0,0\n0.3,2\n5,1\n")
file(WRITE ${SWE_CLI_DIR}/rain_unsorted.csv "0,1\n10,2\n5,3\n")
file(WRITE ${SWE_CLI_DIR}/rain_short.csv "0,1\n0.2,2\n")
add_test(NAME cli.swe_rain_inflow_losses COMMAND ${SWE_EXPECT} -DARGS=swe\;--bathymetry\;${SWE_CLI_DIR}/bed.asc\;--level\;0.5\;--t-end\;0.5\;--device\;cpu\;--rain\;${SWE_CLI_DIR}/rain.csv\;--losses\;green-ampt:10,50,0.3\;--inflow\;y-lo:1:5:${SWE_CLI_DIR}/q.csv\;--source\;3:3:${SWE_CLI_DIR}/q.csv
         -DEXPECT=0 -DMATCH=mass.balance:.*residual.*e-1[0-9].m3 ${SWE_EXPECT_SCRIPT})
file(WRITE ${SWE_CLI_DIR}/frame_a.asc "ncols 2\nnrows 2\nxllcorner -1\nyllcorner -1\ncellsize 5\n40 0\n80 20\n")
file(WRITE ${SWE_CLI_DIR}/rain_grid.csv "time (s),frame\n0,frame_a.asc\n0.3,frame_a.asc\n5,frame_a.asc\n")
file(WRITE ${SWE_CLI_DIR}/frame_small.asc "ncols 1\nnrows 1\nxllcorner -1\nyllcorner -1\ncellsize 5\n40\n")
file(WRITE ${SWE_CLI_DIR}/rain_grid_small.csv "0,frame_a.asc\n5,frame_small.asc\n")
add_test(NAME cli.swe_rain_grid COMMAND ${SWE_EXPECT} -DARGS=swe\;--bathymetry\;${SWE_CLI_DIR}/bed.asc\;--level\;0.5\;--t-end\;0.5\;--device\;cpu\;--rain-grid\;${SWE_CLI_DIR}/rain_grid.csv
         -DEXPECT=0 -DMATCH=mass.balance:.*rain.[0-9].*residual.*e-1[0-9].m3 ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_rain_grid_uncovered_exit1 COMMAND ${SWE_EXPECT} -DARGS=swe\;--bathymetry\;${SWE_CLI_DIR}/bed.asc\;--level\;0.5\;--t-end\;0.5\;--device\;cpu\;--rain-grid\;${SWE_CLI_DIR}/rain_grid_small.csv
         -DEXPECT=1 -DMATCH=rain_grid_small.csv:2:.*frame_small.asc.does.not.cover.the.cell.centre ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_series_too_fine_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;lake-at-rest\;--nx\;20\;--t-end\;100\;--device\;cpu\;--series-every\;1e-6\;--out\;${SWE_CLI_DIR}/never_series
         -DEXPECT=2 -DMATCH=--series-every.1e-06:.*more.than.10.7.rows ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_rain_unsorted_exit1 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;lake-at-rest\;--nx\;20\;--t-end\;1\;--device\;cpu\;--rain\;${SWE_CLI_DIR}/rain_unsorted.csv
         -DEXPECT=1 -DMATCH=rain_unsorted.csv:3:.time.5.after.10 ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_rain_short_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;lake-at-rest\;--nx\;20\;--t-end\;1\;--device\;cpu\;--rain\;${SWE_CLI_DIR}/rain_short.csv
         -DEXPECT=2 -DMATCH=--rain.*rain_short.csv:.the.series.ends.at.t.=.0.2.s.*before.the.run.s.end ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_bad_losses_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;lake-at-rest\;--nx\;20\;--device\;cpu\;--losses\;green-ampt:1,2
         -DEXPECT=2 -DMATCH=--losses.green-ampt:1,2:.expected ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_inflow_off_grid_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--bathymetry\;${SWE_CLI_DIR}/bed.asc\;--level\;0.5\;--device\;cpu\;--inflow\;x-lo:100:200:${SWE_CLI_DIR}/q.csv
         -DEXPECT=2 -DMATCH=reaches.beyond.side.x-lo,.which.runs.from.0.to.6 ${SWE_EXPECT_SCRIPT})
# a level without a bathymetry, or with both forms, is refused, not dropped
add_test(NAME cli.swe_level_without_bathymetry_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;radial-dam\;--nx\;20\;--level\;3\;--device\;cpu
         -DEXPECT=2 -DMATCH=--level:.needs.--bathymetry ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_level_and_level_file_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--bathymetry\;${SWE_CLI_DIR}/bed.asc\;--level\;0.5\;--level-file\;${SWE_CLI_DIR}/bed.asc\;--device\;cpu
         -DEXPECT=2 -DMATCH=give.--level.0.5.or.--level-file.*not.both ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_nodata_without_bathymetry_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--nx\;20\;--nodata\;error\;--device\;cpu
         -DEXPECT=2 -DMATCH=--nodata.error:.needs.--bathymetry ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_section_off_grid_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;radial-dam\;--nx\;20\;--t-end\;0.1\;--device\;cpu\;--series-every\;0.05\;--section\;cut:25:0:25:51
         -DEXPECT=2 -DMATCH=--section.cut:25:0:25:51:.the.end..25,.51..lies.outside.the.grid ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_png_range_infinite_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;radial-dam\;--nx\;20\;--t-end\;0.1\;--device\;cpu\;--png-range\;0\;inf
         -DEXPECT=2 -DMATCH=--png-range:.expected.a.finite.number,.got.inf ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_thesis_physical_option_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--model\;thesis\;--nx\;20\;--device\;cpu\;--series-every\;1\;--section\;cut:1:1:2:2
         -DEXPECT=2 -DMATCH=--series-every.is.an.option.of.--model.physical ${SWE_EXPECT_SCRIPT})
# the V-catchment rainfall-runoff benchmark against the published hydrographs
# (bench/validation/swe_v_catchment.py; second order, 180 min, 3 s here)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME swe.validation_v_catchment COMMAND ${Python3_EXECUTABLE}
           ${PROJECT_SOURCE_DIR}/bench/validation/swe_v_catchment.py --tessera $<TARGET_FILE:tessera_cli>
           --device cpu --order 2 --out ${SWE_CLI_DIR}/v_catchment --check)
  set_tests_properties(swe.validation_v_catchment PROPERTIES TIMEOUT 300)
endif()
# the flood tutorial end to end (examples/swe/flood/run.sh): a GeoTIFF DEM,
# rain and a hydrograph in, a maximum-depth GeoTIFF out, read by gdalinfo;
# shortened to 30 min, first order
find_program(GDAL_TRANSLATE gdal_translate)
find_program(GDALINFO gdalinfo)
if(TESSERA_SWE_GDAL AND GDAL_TRANSLATE AND GDALINFO AND Python3_Interpreter_FOUND)
  add_test(NAME swe.tutorial_flood COMMAND ${PROJECT_SOURCE_DIR}/examples/swe/flood/run.sh
           $<TARGET_FILE:tessera_cli> cpu ${SWE_CLI_DIR}/flood)
  set_tests_properties(swe.tutorial_flood PROPERTIES ENVIRONMENT "T_END=1800;ORDER=1" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "STATISTICS_MAXIMUM=[0-9]")
endif()
add_test(NAME cli.bench_swe_cpu COMMAND tessera_cli bench swe --device cpu --size 48 --quick --reps 1 --warmup 1 --param thesis-n=40 --param steps=4)

# several parts in one process (x-slabs): a run with outputs, and usage errors
add_test(NAME cli.swe_three_parts COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;radial-dam\;--nx\;40\;--order\;2\;--t-end\;0.3\;--gpus\;3\;--device\;cpu\;--out\;${SWE_CLI_DIR}/parts\;--format\;vti -DEXPECT=0 -DMATCH=radial-dam.on.cpu ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_parts_too_thin_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--case\;radial-dam\;--nx\;40\;--gpus\;21\;--device\;cpu -DEXPECT=2 -DMATCH=at.least.2.rows ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.swe_thesis_parts_exit2 COMMAND ${SWE_EXPECT} -DARGS=swe\;--model\;thesis\;--nx\;20\;--gpus\;2\;--device\;cpu -DEXPECT=2 -DMATCH=only.the.physical ${SWE_EXPECT_SCRIPT})
add_test(NAME cli.bench_swe_parts_cpu COMMAND tessera_cli bench swe --device cpu --size 48 --reps 1 --warmup 1 --param parts=1,2 --param steps=4)

# checkpoint/restart on the command line: an interrupted run (TESSERA_FAULT)
# writes its checkpoint and exits 130/143; --restart continues it; the outputs
# equal an uninterrupted run's byte for byte. swe_restart(name fault fault-args
# restart-args common-args...): fixtures order full/interrupt -> continue ->
# compare.
set(SWE_RESTART_DIR ${CMAKE_CURRENT_BINARY_DIR}/swe_restart)
file(MAKE_DIRECTORY ${SWE_RESTART_DIR})
set(SWE_RUN_CHECK -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
function(swe_restart name fault exit_code interrupt_args restart_args)
  string(REPLACE ";" "|" common "${ARGN}")
  if(interrupt_args)
    string(PREPEND interrupt_args "|")
  endif()
  set(d ${SWE_RESTART_DIR}/${name})
  # a clean start: files of an earlier ctest run must not stand in for missing ones
  add_test(NAME swe.restart_${name}_clean COMMAND ${CMAKE_COMMAND} -E rm -rf ${d}_full ${d}_part ${d}.ckpt)
  set_tests_properties(swe.restart_${name}_clean PROPERTIES FIXTURES_SETUP swe_restart_${name}_clean)
  add_test(NAME swe.restart_${name}_full COMMAND tessera_cli
           swe ${ARGN} --out ${d}_full)
  add_test(NAME swe.restart_${name}_interrupt COMMAND ${SWE_EXPECT}
           -DARGS=swe|${common}${interrupt_args}|--out|${d}_part|--checkpoint|${d}.ckpt -DEXPECT=${exit_code}
           -DMATCH=interrupted.by.SIG[A-Z]+.after.step.[0-9]+:.checkpoint.*${name}.ckpt.*continue.with.the.same.options.and.--restart
           -DEXISTS=${d}.ckpt ${SWE_RUN_CHECK})
  set_tests_properties(swe.restart_${name}_interrupt PROPERTIES ENVIRONMENT "TESSERA_FAULT=${fault}"
                       FIXTURES_SETUP swe_restart_${name}_int)
  add_test(NAME swe.restart_${name}_continue COMMAND tessera_cli swe ${ARGN} ${restart_args} --out ${d}_part
           --restart ${d}.ckpt)
  set_tests_properties(swe.restart_${name}_continue swe.restart_${name}_full PROPERTIES
                       FIXTURES_SETUP swe_restart_${name}_done)
  set_tests_properties(swe.restart_${name}_continue PROPERTIES FIXTURES_REQUIRED swe_restart_${name}_int)
  set_tests_properties(swe.restart_${name}_full swe.restart_${name}_interrupt PROPERTIES
                       FIXTURES_REQUIRED swe_restart_${name}_clean)
  add_test(NAME swe.restart_${name}_identical COMMAND ${CMAKE_COMMAND} -DA=${d}_full -DB=${d}_part
           -P ${CMAKE_CURRENT_SOURCE_DIR}/swe/compare_outputs.cmake)
  set_tests_properties(swe.restart_${name}_identical PROPERTIES FIXTURES_REQUIRED swe_restart_${name}_done)
endfunction()
# physical, stopped inside an advance on 2 parts, continued on 3 (the straight run on 1)
swe_restart(physical_parts sigint_at_step:3 130 --gpus|2 "--gpus;3"
  --case radial-dam --nx 80 --order 2 --t-end 0.6 --every-time 0.3 --device cpu --format vti,png)
# physical in float, stopped between two --every-time advances (after the output of the first)
swe_restart(physical_between sigterm_at_step:2 143 "" ""
  --case radial-dam --nx 80 --t-end 0.6 --every-time 0.3 --device cpu --format vti --precision float)
# physical with rain and an inflow hydrograph (series are functions of time:
# nothing of them in the checkpoint), stopped inside an advance
swe_restart(physical_rain sigint_at_step:3 130 "" ""
  --case radial-dam --nx 80 --order 2 --t-end 0.6 --every-time 0.3 --device cpu --format vti
  --rain ${SWE_CLI_DIR}/rain.csv --inflow x-lo:${SWE_CLI_DIR}/q.csv --bc-x-hi normal-depth
  --series-every 0.1 --gauge mid:25:25 --section ring:30:5:30:45 --max-maps)
# thesis, outputs every 4 steps, continued in another variant
swe_restart(thesis sigterm_at_step:7 143 --variant|v1-ghost-kernels "--variant;pingpong-global"
  --model thesis --nx 30 --ny 20 --t-end 3 --every 4 --device cpu --format vtk,vti)
# a restart with other options: exit 2 naming the file and the option
add_test(NAME swe.restart_other_options_exit2 COMMAND ${SWE_EXPECT}
  -DARGS=swe\;--case\;radial-dam\;--nx\;80\;--order\;1\;--t-end\;0.6\;--every-time\;0.3\;--device\;cpu\;--restart\;${SWE_RESTART_DIR}/physical_parts.ckpt
  -DEXPECT=2 -DMATCH=physical_parts.ckpt:.the.checkpoint.was.written.with.--order.2,.this.run.has.--order.1 ${SWE_EXPECT_SCRIPT})
set_tests_properties(swe.restart_other_options_exit2 PROPERTIES FIXTURES_REQUIRED swe_restart_physical_parts_int)
file(WRITE ${SWE_RESTART_DIR}/not_a_checkpoint.ckpt "this is not a checkpoint, but long enough to be read\n")
add_test(NAME swe.restart_bad_file_exit1 COMMAND ${SWE_EXPECT}
  -DARGS=swe\;--model\;thesis\;--nx\;20\;--device\;cpu\;--restart\;${SWE_RESTART_DIR}/not_a_checkpoint.ckpt
  -DEXPECT=1 -DMATCH=not_a_checkpoint.ckpt:.not.a.valid.swe.checkpoint:.no.TSSWECK1.signature ${SWE_EXPECT_SCRIPT})
# --checkpoint-every: the second periodic write fails (exit 1), the first
# survives; continued from it, the final checkpoint equals a straight run's
# byte for byte (no --out: the checkpoints are the only files written)
function(swe_every name every)
  set(d ${SWE_RESTART_DIR}/every_${name})
  string(REPLACE ";" "|" common "${ARGN}")
  add_test(NAME swe.checkpoint_every_${name}_clean COMMAND ${CMAKE_COMMAND} -E rm -f ${d}.ckpt ${d}_end.ckpt
           ${d}_straight.ckpt)
  set_tests_properties(swe.checkpoint_every_${name}_clean PROPERTIES FIXTURES_SETUP swe_every_${name}_clean)
  add_test(NAME swe.checkpoint_every_${name}_straight COMMAND tessera_cli swe ${ARGN} --checkpoint ${d}_straight.ckpt)
  add_test(NAME swe.checkpoint_every_${name}_write_fails COMMAND ${SWE_EXPECT}
           -DARGS=swe|${common}|--checkpoint-every|${every}|--checkpoint|${d}.ckpt -DEXPECT=1
           -DMATCH=cannot.write.*every_${name}.ckpt -DEXISTS=${d}.ckpt ${SWE_RUN_CHECK})
  set_tests_properties(swe.checkpoint_every_${name}_write_fails PROPERTIES ENVIRONMENT "TESSERA_FAULT=write_rename:2"
                       FIXTURES_SETUP swe_every_${name}_int)
  add_test(NAME swe.checkpoint_every_${name}_continue COMMAND tessera_cli swe ${ARGN} --restart ${d}.ckpt
           --checkpoint ${d}_end.ckpt)
  set_tests_properties(swe.checkpoint_every_${name}_continue PROPERTIES FIXTURES_REQUIRED swe_every_${name}_int)
  set_tests_properties(swe.checkpoint_every_${name}_straight swe.checkpoint_every_${name}_write_fails PROPERTIES
                       FIXTURES_REQUIRED swe_every_${name}_clean)
  set_tests_properties(swe.checkpoint_every_${name}_continue swe.checkpoint_every_${name}_straight PROPERTIES
                       FIXTURES_SETUP swe_every_${name}_done)
  add_test(NAME swe.checkpoint_every_${name}_identical COMMAND ${CMAKE_COMMAND} -E compare_files ${d}_straight.ckpt
           ${d}_end.ckpt)
  set_tests_properties(swe.checkpoint_every_${name}_identical PROPERTIES FIXTURES_REQUIRED swe_every_${name}_done)
endfunction()
swe_every(thesis 3 --model thesis --nx 24 --t-end 4 --precision float --device cpu)
swe_every(physical 20 --case ritter --nx 160 --t-end 4 --gpus 2 --device cpu)
# the sources' state (infiltrated depth) and the open sides' tallies travel in
# the checkpoint: the continued run's final checkpoint is the straight one's
swe_every(physical_sources 20 --case lake-at-rest --nx 40 --t-end 5 --gpus 2 --device cpu
  --rain ${SWE_CLI_DIR}/rain.csv --losses green-ampt:30,50,0.3 --bc-x-hi transmissive
  --inflow x-lo:${SWE_CLI_DIR}/q.csv --max-maps)
# regression: in float, T(0.7) < 0.7, and the --every-time loop compared the
# device's time with the double t-end: it never ended (now the end is T(t-end))
add_test(NAME cli.swe_float_every_time_ends COMMAND ${SWE_EXPECT}
  -DARGS=swe\;--case\;radial-dam\;--nx\;40\;--precision\;float\;--every-time\;0.35\;--t-end\;0.7\;--device\;cpu
  -DEXPECT=0 -DMATCH=t.=.0.7.s ${SWE_EXPECT_SCRIPT})
set_tests_properties(cli.swe_float_every_time_ends PROPERTIES TIMEOUT 30)
