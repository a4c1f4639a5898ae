target_sources(tessera_tests PRIVATE
  lbm/test_lbm_storage.cpp
  lbm/test_lbm_reference.cpp
  lbm/test_lbm_backends.cpp
  lbm/test_lbm_validation.cpp
  lbm/test_lbm_thesis.cpp
  lbm/test_lbm_outputs.cpp
  lbm/test_lbm_distributed.cpp
  lbm/test_lbm_case_file.cpp
  lbm/test_lbm_inlet.cpp
  lbm/test_lbm_free_slip.cpp
  lbm/test_lbm_interpolated.cpp
  lbm/test_voxelize.cpp
  lbm/test_placement.cpp)

# tessera lbm: runs and bad input (exit 2 usage, 1 runtime), with the message checked.
set(LBM_CLI_DIR ${CMAKE_CURRENT_BINARY_DIR}/lbm_cli)
file(MAKE_DIRECTORY ${LBM_CLI_DIR})
add_test(NAME cli.lbm_cavity_outputs COMMAND tessera_cli lbm --case cavity --lattice D2Q9 --size 24 --steps 300 --every 150
         --device cpu --out ${LBM_CLI_DIR}/cavity --json ${LBM_CLI_DIR}/cavity.json --checkpoint ${LBM_CLI_DIR}/cavity.ckpt)
set_tests_properties(cli.lbm_cavity_outputs PROPERTIES FIXTURES_SETUP lbm_cli)
add_test(NAME cli.lbm_restart COMMAND tessera_cli lbm --case cavity --lattice D2Q9 --size 24 --steps 310 --device cpu
         --restart ${LBM_CLI_DIR}/cavity.ckpt)
add_test(NAME cli.lbm_restart_mismatch_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=lbm\;--case\;cavity\;--lattice\;D2Q9\;--size\;30\;--steps\;1\;--device\;cpu\;--restart\;${LBM_CLI_DIR}/cavity.ckpt
         -DEXPECT=2 -DMATCH=checkpoint.holds -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
set_tests_properties(cli.lbm_restart cli.lbm_restart_mismatch_exit2 PROPERTIES FIXTURES_REQUIRED lbm_cli)
add_test(NAME cli.lbm_thesis_gas COMMAND tessera_cli lbm --case thesis-gas -s 24 20 18 -n 3 --device cpu
         -e ${LBM_CLI_DIR}/thesis.raw)
add_test(NAME cli.lbm_tau_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=lbm\;--case\;tgv\;--tau\;0.5\;--size\;8\;--device\;cpu -DEXPECT=2 -DMATCH=tau
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.lbm_png_range_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=lbm\;--case\;cavity\;--size\;8\;--device\;cpu\;--png-range\;1\;0 -DEXPECT=2
         -DMATCH=--png-range.1.0:.expected.finite.LO.<.HI -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.lbm_mach_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=lbm\;--case\;cavity\;--u\;0.3\;--size\;8\;--device\;cpu -DEXPECT=2 -DMATCH=Mach
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.lbm_too_big_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=lbm\;--case\;tgv\;--size\;100000\;100000\;1000\;--device\;cpu -DEXPECT=1 -DMATCH=needed
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.lbm_bad_frame_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=lbm\;--case\;thesis-gas\;-s\;5\;5\;5\;-i\;${CMAKE_CURRENT_SOURCE_DIR}/CMakeLists.txt\;--device\;cpu
         -DEXPECT=1 -DMATCH=frame.has -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.lbm_diverges_exit1 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=lbm\;--case\;tgv\;--lattice\;D2Q9\;--size\;16\;--tau\;0.5001\;--u\;0.17\;--steps\;5000\;--every\;500\;--device\;cpu
         -DEXPECT=1 -DMATCH=diverged -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.lbm_thesis_slabs_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=lbm\;--case\;thesis-gas\;-g\;4\;-s\;8\;8\;3\;--device\;cpu -DEXPECT=2 -DMATCH=z-slabs
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.lbm_thesis_slabs COMMAND tessera_cli lbm --case thesis-gas -g 3 -s 24 20 19 -n 3 --device cpu
         -e ${LBM_CLI_DIR}/thesis3.raw)
# the structure-of-arrays layout computes the thesis's bits: its exported
# frame (AoS on disk) equals the AoS run's byte for byte
add_test(NAME cli.lbm_thesis_soa COMMAND tessera_cli lbm --case thesis-gas -s 24 20 18 -n 3 --device cpu
         --thesis-layout soa -e ${LBM_CLI_DIR}/thesis_soa.raw)
add_test(NAME cli.lbm_thesis_soa_equals_aos COMMAND ${CMAKE_COMMAND} -E compare_files
         ${LBM_CLI_DIR}/thesis.raw ${LBM_CLI_DIR}/thesis_soa.raw)
# the thesis's Muesli program (its user function through mapStencil, on 2
# logical devices) exports the native kernel's frame byte for byte
add_test(NAME cli.lbm_thesis_mapstencil COMMAND tessera_cli lbm --case thesis-gas -s 24 20 18 -n 3 --device cpu
         -g 2 --thesis-impl mapstencil -e ${LBM_CLI_DIR}/thesis_muesli.raw)
add_test(NAME cli.lbm_thesis_mapstencil_equals_native COMMAND ${CMAKE_COMMAND} -E compare_files
         ${LBM_CLI_DIR}/thesis.raw ${LBM_CLI_DIR}/thesis_muesli.raw)
add_test(NAME cli.lbm_thesis_mapstencil_soa_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=lbm\;--case\;thesis-gas\;--thesis-impl\;mapstencil\;--thesis-layout\;soa\;--device\;cpu -DEXPECT=2
         -DMATCH=76-byte -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
set_tests_properties(cli.lbm_thesis_gas cli.lbm_thesis_soa cli.lbm_thesis_mapstencil PROPERTIES FIXTURES_SETUP
                     lbm_thesis_frames)
set_tests_properties(cli.lbm_thesis_soa_equals_aos cli.lbm_thesis_mapstencil_equals_native PROPERTIES
                     FIXTURES_REQUIRED lbm_thesis_frames)
add_test(NAME cli.bench_lbm_cpu COMMAND tessera_cli bench lbm --device cpu --size 24 --reps 2 --warmup 1
         --param thesis_sides=24 --param thesis_iterations=2)
add_test(NAME cli.lbm_three_parts COMMAND tessera_cli lbm --case cavity --size 20 20 7 --gpus 3 --device cpu --steps 40
         --out ${LBM_CLI_DIR}/parts)
add_test(NAME cli.lbm_ab_one_device COMMAND tessera_cli lbm --case tgv --streaming ab --size 16 16 8 --device cpu --steps 20)
add_test(NAME cli.lbm_ab_thesis_esoteric_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=lbm\;--case\;thesis-gas\;--streaming\;esoteric\;--device\;cpu -DEXPECT=2 -DMATCH=two.lattices
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)

# --gpus: a run interrupted on 2 parts (its checkpoint holds the gathered
# lattice) and continued on 3 writes the straight 2-part run's fields: every
# .vti and .png byte for byte. So does a one-device run interrupted and
# continued on 2 parts (its esoteric checkpoint converted). A 2D checkpoint
# cannot go to the distributed solver (it splits z): a usage error.
set(LBM_PARTS_DIR ${CMAKE_CURRENT_BINARY_DIR}/lbm_parts_restart)
set(LBM_PARTS_ARGS lbm --case cavity --size 20 20 7 --device cpu --every 64)
add_test(NAME cli.lbm_parts_restart_clean COMMAND ${CMAKE_COMMAND} -E rm -rf ${LBM_PARTS_DIR})
set_tests_properties(cli.lbm_parts_restart_clean PROPERTIES FIXTURES_SETUP lbm_parts_clean)
add_test(NAME cli.lbm_parts_restart_full COMMAND tessera_cli ${LBM_PARTS_ARGS} --gpus 2 --steps 192
         --out ${LBM_PARTS_DIR}/full)
string(REPLACE ";" "|" lbm_parts_common "${LBM_PARTS_ARGS}")
add_test(NAME cli.lbm_parts_restart_interrupt COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=${lbm_parts_common}|--gpus|2|--steps|192|--out|${LBM_PARTS_DIR}/part|--checkpoint|${LBM_PARTS_DIR}/c.ckpt
         -DEXPECT=130 -DMATCH=interrupted.by.SIGINT.after.step.1:.checkpoint.*c.ckpt -DEXISTS=${LBM_PARTS_DIR}/c.ckpt
         -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
set_tests_properties(cli.lbm_parts_restart_interrupt PROPERTIES ENVIRONMENT "TESSERA_FAULT=sigint_at_step:1"
                     FIXTURES_SETUP lbm_parts_int)
set_tests_properties(cli.lbm_parts_restart_full cli.lbm_parts_restart_interrupt PROPERTIES
                     FIXTURES_REQUIRED lbm_parts_clean)
add_test(NAME cli.lbm_parts_restart_continue COMMAND tessera_cli ${LBM_PARTS_ARGS} --gpus 3 --steps 192
         --out ${LBM_PARTS_DIR}/part --restart ${LBM_PARTS_DIR}/c.ckpt)
set_tests_properties(cli.lbm_parts_restart_continue PROPERTIES FIXTURES_REQUIRED lbm_parts_int)
set_tests_properties(cli.lbm_parts_restart_continue cli.lbm_parts_restart_full PROPERTIES FIXTURES_SETUP lbm_parts_done)
add_test(NAME cli.lbm_parts_restart_identical COMMAND ${CMAKE_COMMAND} -DA=${LBM_PARTS_DIR}/full
         -DB=${LBM_PARTS_DIR}/part "-DGLOB=*.vti|*.png|*.pvd" -P ${CMAKE_CURRENT_SOURCE_DIR}/swe/compare_outputs.cmake)
set_tests_properties(cli.lbm_parts_restart_identical PROPERTIES FIXTURES_REQUIRED lbm_parts_done)
add_test(NAME cli.lbm_parts_restart_2d_ckpt_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=${lbm_parts_common}|--gpus|2|--steps|1|--restart|${LBM_CLI_DIR}/cavity.ckpt
         -DEXPECT=2 -DMATCH=use.a.3D.lattice -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
set_tests_properties(cli.lbm_parts_restart_2d_ckpt_exit2 PROPERTIES FIXTURES_REQUIRED lbm_cli)
add_test(NAME cli.lbm_one_device_to_parts_interrupt COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=${lbm_parts_common}|--steps|192|--out|${LBM_PARTS_DIR}/one|--checkpoint|${LBM_PARTS_DIR}/one.ckpt
         -DEXPECT=130 -DMATCH=interrupted.by.SIGINT.after.step.1:.checkpoint.*one.ckpt
         -DEXISTS=${LBM_PARTS_DIR}/one.ckpt -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
set_tests_properties(cli.lbm_one_device_to_parts_interrupt PROPERTIES ENVIRONMENT "TESSERA_FAULT=sigint_at_step:1"
                     FIXTURES_REQUIRED lbm_parts_clean FIXTURES_SETUP lbm_one_int)
add_test(NAME cli.lbm_one_device_to_parts_continue COMMAND tessera_cli ${LBM_PARTS_ARGS} --gpus 2 --steps 192
         --out ${LBM_PARTS_DIR}/one --restart ${LBM_PARTS_DIR}/one.ckpt)
set_tests_properties(cli.lbm_one_device_to_parts_continue PROPERTIES FIXTURES_REQUIRED lbm_one_int
                     FIXTURES_SETUP lbm_one_done)
add_test(NAME cli.lbm_one_device_to_parts_identical COMMAND ${CMAKE_COMMAND} -DA=${LBM_PARTS_DIR}/full
         -DB=${LBM_PARTS_DIR}/one "-DGLOB=*.vti|*.png|*.pvd" -P ${CMAKE_CURRENT_SOURCE_DIR}/swe/compare_outputs.cmake)
set_tests_properties(cli.lbm_one_device_to_parts_identical PROPERTIES FIXTURES_REQUIRED "lbm_one_done;lbm_parts_done")

# Case files (issue 43): the example runs and writes its series; the built-in
# cylinder and its case file give the same drag; contradictions are refused.
add_test(NAME cli.lbm_config_example COMMAND tessera_cli lbm --config
         ${PROJECT_SOURCE_DIR}/examples/lbm/cylinder_channel.toml --device cpu --steps 400 --every 200
         --out ${LBM_CLI_DIR}/config --json ${LBM_CLI_DIR}/config.json)
set_tests_properties(cli.lbm_config_example PROPERTIES PASS_REGULAR_EXPRESSION
                     "grid Reynolds number U dx / nu 10.*400 steps")
foreach(c "re|100|--re.and.the.case.file" "case|cavity|--case.and.the.case.file"
          "size|30|--size.and.the.case.file")
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 opt)
  list(GET parts 1 val)
  list(GET parts 2 match)
  add_test(NAME cli.lbm_config_with_${opt}_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
           -DARGS=lbm\;--config\;${PROJECT_SOURCE_DIR}/examples/lbm/cylinder_channel.toml\;--${opt}\;${val}\;--device\;cpu
           -DEXPECT=2 -DMATCH=${match} -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
endforeach()
file(WRITE ${LBM_CLI_DIR}/unknown_key.toml "lattice = \"D2Q9\"\nspeed = 3\n")
add_test(NAME cli.lbm_config_unknown_key_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=lbm\;--config\;${LBM_CLI_DIR}/unknown_key.toml\;--device\;cpu -DEXPECT=2
         -DMATCH=unknown_key.toml:2:.unknown.key..speed...keys.are.the.options.of.tessera.lbm
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.lbm_config_series_written COMMAND ${CMAKE_COMMAND} -DFILE=${LBM_CLI_DIR}/config/forces.csv
         -DLINES=3 -DMATCH=^step,time..steps.,body,Fx -P ${CMAKE_CURRENT_LIST_DIR}/file_lines.cmake)
set_tests_properties(cli.lbm_config_example PROPERTIES FIXTURES_SETUP lbm_config)
set_tests_properties(cli.lbm_config_series_written PROPERTIES FIXTURES_REQUIRED lbm_config)
# the geometry tutorial's case: an STL body, placed, rotated and voxelized
add_test(NAME cli.lbm_config_stl_example COMMAND tessera_cli lbm --config
         ${PROJECT_SOURCE_DIR}/examples/lbm/ellipsoid.toml --device cpu --steps 10 --every 10
         --out ${LBM_CLI_DIR}/ellipsoid)
set_tests_properties(cli.lbm_config_stl_example PROPERTIES PASS_REGULAR_EXPRESSION
                     "grid Reynolds number U dx / nu 3.12.*10 steps")
# ... and on two parts (--gpus 2, logical CPU devices: the distributed solver
# with the STL body, a force series reduced over the parts): the same
# forces.csv byte for byte
add_test(NAME cli.lbm_config_stl_two_parts COMMAND tessera_cli lbm --config
         ${PROJECT_SOURCE_DIR}/examples/lbm/ellipsoid.toml --device cpu --gpus 2 --steps 10 --every 10
         --out ${LBM_CLI_DIR}/ellipsoid_parts)
add_test(NAME cli.lbm_config_stl_parts_forces_equal COMMAND ${CMAKE_COMMAND} -E compare_files
         ${LBM_CLI_DIR}/ellipsoid/forces.csv ${LBM_CLI_DIR}/ellipsoid_parts/forces.csv)
set_tests_properties(cli.lbm_config_stl_example cli.lbm_config_stl_two_parts PROPERTIES FIXTURES_SETUP
                     lbm_stl_parts)
set_tests_properties(cli.lbm_config_stl_parts_forces_equal PROPERTIES FIXTURES_REQUIRED lbm_stl_parts)

# Interpolated bounce-back (a sphere of 5.3 cells, D3Q19): a run interrupted
# and continued from its checkpoint writes the straight run's forces.csv
# and fields (the links are the case's, set again on restart), and two
# parts (--gpus 2) give the one device's forces.csv byte for byte.
set(LBM_INTERP_DIR ${CMAKE_CURRENT_BINARY_DIR}/lbm_interpolated)
file(MAKE_DIRECTORY ${LBM_INTERP_DIR})
file(WRITE ${LBM_INTERP_DIR}/ball.toml "lattice = \"D3Q19\"\ncollision = \"trt\"\n[domain]\ncells = [32, 16, 14]\n"
     "[flow]\nvelocity = 0.05\nviscosity = 0.02\n[boundary]\nx-min = \"inlet\"\nx-max = \"outlet\"\n"
     "[[body]]\nname = \"ball\"\nshape = \"sphere\"\ncentre = [10.3, 7.6, 6.4]\ndiameter = 5.3\n"
     "bounce-back = \"interpolated\"\n")
set(LBM_INTERP_ARGS lbm --config ${LBM_INTERP_DIR}/ball.toml --device cpu --steps 40 --every 10)
add_test(NAME cli.lbm_interpolated_clean COMMAND ${CMAKE_COMMAND} -E rm -rf ${LBM_INTERP_DIR}/full
         ${LBM_INTERP_DIR}/part ${LBM_INTERP_DIR}/parts ${LBM_INTERP_DIR}/c.ckpt
         ${LBM_INTERP_DIR}/mpi2 ${LBM_INTERP_DIR}/mpi3 ${LBM_INTERP_DIR}/mpi3.ckpt)
set_tests_properties(cli.lbm_interpolated_clean PROPERTIES FIXTURES_SETUP lbm_interp_clean)
add_test(NAME cli.lbm_interpolated_full COMMAND tessera_cli ${LBM_INTERP_ARGS} --out ${LBM_INTERP_DIR}/full)
set_tests_properties(cli.lbm_interpolated_full PROPERTIES PASS_REGULAR_EXPRESSION
                     "interpolated bounce-back: [0-9]+ links into the bodies")
add_test(NAME cli.lbm_interpolated_parts COMMAND tessera_cli ${LBM_INTERP_ARGS} --gpus 2
         --out ${LBM_INTERP_DIR}/parts)
string(REPLACE ";" "|" lbm_interp_common "${LBM_INTERP_ARGS}")
add_test(NAME cli.lbm_interpolated_interrupt COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=${lbm_interp_common}|--out|${LBM_INTERP_DIR}/part|--checkpoint|${LBM_INTERP_DIR}/c.ckpt
         -DEXPECT=130 -DMATCH=interrupted.by.SIGINT -DEXISTS=${LBM_INTERP_DIR}/c.ckpt
         -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
set_tests_properties(cli.lbm_interpolated_interrupt PROPERTIES ENVIRONMENT "TESSERA_FAULT=sigint_at_step:1")
set_tests_properties(cli.lbm_interpolated_full cli.lbm_interpolated_parts cli.lbm_interpolated_interrupt
                     PROPERTIES FIXTURES_REQUIRED lbm_interp_clean)
set_tests_properties(cli.lbm_interpolated_interrupt PROPERTIES FIXTURES_SETUP lbm_interp_int)
add_test(NAME cli.lbm_interpolated_continue COMMAND tessera_cli ${LBM_INTERP_ARGS} --out ${LBM_INTERP_DIR}/part
         --restart ${LBM_INTERP_DIR}/c.ckpt)
set_tests_properties(cli.lbm_interpolated_continue PROPERTIES FIXTURES_REQUIRED lbm_interp_int)
set_tests_properties(cli.lbm_interpolated_continue cli.lbm_interpolated_full cli.lbm_interpolated_parts
                     PROPERTIES FIXTURES_SETUP lbm_interp_done)
add_test(NAME cli.lbm_interpolated_restart_identical COMMAND ${CMAKE_COMMAND} -DA=${LBM_INTERP_DIR}/full
         -DB=${LBM_INTERP_DIR}/part "-DGLOB=*.vti|forces.csv" -P ${CMAKE_CURRENT_SOURCE_DIR}/swe/compare_outputs.cmake)
add_test(NAME cli.lbm_interpolated_parts_forces_equal COMMAND ${CMAKE_COMMAND} -E compare_files
         ${LBM_INTERP_DIR}/full/forces.csv ${LBM_INTERP_DIR}/parts/forces.csv)
set_tests_properties(cli.lbm_interpolated_restart_identical cli.lbm_interpolated_parts_forces_equal PROPERTIES
                     FIXTURES_REQUIRED lbm_interp_done)

# --mpi (one rank per device set; the run on CPU devices here): 2 ranks x 2
# parts write the one device's forces.csv and .vti files byte for byte; a
# checkpoint 3 ranks wrote (rank 0, from the gathered lattice) continues on
# one device to the straight run's forces.csv.
if(TESSERA_HAVE_MPI)
  set(LBM_MPI_ENV "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMP_NUM_THREADS=1")
  add_test(NAME cli.lbm_mpi_np2_x2 COMMAND ${MPIEXEC_EXECUTABLE} --oversubscribe ${MPIEXEC_NUMPROC_FLAG} 2
           $<TARGET_FILE:tessera_cli> ${LBM_INTERP_ARGS} --mpi --gpus 2 --out ${LBM_INTERP_DIR}/mpi2)
  add_test(NAME cli.lbm_mpi_np3_checkpoint COMMAND ${MPIEXEC_EXECUTABLE} --oversubscribe ${MPIEXEC_NUMPROC_FLAG} 3
           $<TARGET_FILE:tessera_cli> lbm --config ${LBM_INTERP_DIR}/ball.toml --device cpu --steps 20 --every 10
           --mpi --checkpoint ${LBM_INTERP_DIR}/mpi3.ckpt --out ${LBM_INTERP_DIR}/mpi3)
  set_tests_properties(cli.lbm_mpi_np2_x2 cli.lbm_mpi_np3_checkpoint PROPERTIES ENVIRONMENT "${LBM_MPI_ENV}"
                       TIMEOUT 120 FIXTURES_REQUIRED lbm_interp_clean)
  set_tests_properties(cli.lbm_mpi_np3_checkpoint PROPERTIES FIXTURES_SETUP lbm_mpi3)
  add_test(NAME cli.lbm_mpi_checkpoint_continue COMMAND tessera_cli ${LBM_INTERP_ARGS} --out ${LBM_INTERP_DIR}/mpi3
           --restart ${LBM_INTERP_DIR}/mpi3.ckpt)
  set_tests_properties(cli.lbm_mpi_checkpoint_continue PROPERTIES FIXTURES_REQUIRED lbm_mpi3)
  set_tests_properties(cli.lbm_mpi_np2_x2 cli.lbm_mpi_checkpoint_continue PROPERTIES FIXTURES_SETUP lbm_mpi_done)
  add_test(NAME cli.lbm_mpi_np2_x2_identical COMMAND ${CMAKE_COMMAND} -DA=${LBM_INTERP_DIR}/full
           -DB=${LBM_INTERP_DIR}/mpi2 "-DGLOB=*.vti|forces.csv" -P ${CMAKE_CURRENT_SOURCE_DIR}/swe/compare_outputs.cmake)
  add_test(NAME cli.lbm_mpi_checkpoint_identical COMMAND ${CMAKE_COMMAND} -E compare_files
           ${LBM_INTERP_DIR}/full/forces.csv ${LBM_INTERP_DIR}/mpi3/forces.csv)
  set_tests_properties(cli.lbm_mpi_np2_x2_identical cli.lbm_mpi_checkpoint_identical PROPERTIES
                       FIXTURES_REQUIRED "lbm_mpi_done;lbm_interp_done")
endif()
