# skeleton (issue 8): library tests in tessera_tests; MPI tests as their own
# executable run with mpirun -np 2 and -np 3 (oversubscribed, root allowed).
target_sources(tessera_tests PRIVATE
  skeleton/test_skeleton_layout.cpp
  skeleton/test_skeleton_map.cpp
  skeleton/test_skeleton_stencil.cpp
  skeleton/test_skeleton_fold.cpp
  skeleton/test_skeleton_exchange.cpp
  skeleton/test_skeleton_large.cpp
  skeleton/test_skeleton_checkpoint.cpp
  skeleton/test_skeleton_native.cpp)

if(TESSERA_HAVE_MPI)
  add_executable(tessera_skeleton_mpi_tests skeleton/test_skeleton_mpi.cpp)
  target_include_directories(tessera_skeleton_mpi_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(tessera_skeleton_mpi_tests PRIVATE tessera MPI::MPI_CXX tessera_flags)
  set(SKELETON_MPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1)
  # 2 ranks x 1 part, 3 ranks x 1 part, 3 ranks x 2 parts (MPI and in-process neighbours mixed)
  foreach(cfg "2;1" "3;1" "3;2")
    list(GET cfg 0 np)
    list(GET cfg 1 local)
    add_test(NAME skeleton.mpi_np${np}_x${local}
             COMMAND ${MPIEXEC_EXECUTABLE} --oversubscribe ${MPIEXEC_NUMPROC_FLAG} ${np}
                     $<TARGET_FILE:tessera_skeleton_mpi_tests> ${local})
    set_tests_properties(skeleton.mpi_np${np}_x${local} PROPERTIES ENVIRONMENT "${SKELETON_MPI_ENV}" TIMEOUT 120)
  endforeach()
endif()

# tessera skel-demo: the thesis's DA example, multi-part runs bitwise equal to
# one part, and clear usage errors.
add_test(NAME cli.skel_demo_da COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=skel-demo\;da\;--device\;cpu\;--gpus\;3 -DEXPECT=0 -DMATCH=\\[9,.12,.15,.18\\]
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.skel_demo_heat2d_check COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=skel-demo\;heat2d\;--device\;cpu\;--gpus\;3\;--size\;64\;--steps\;10\;--check -DEXPECT=0
         -DMATCH=bitwise.identical -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.skel_demo_blur3d_check COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=skel-demo\;blur3d\;--device\;cpu\;--gpus\;4\;--size\;13\;--steps\;3\;--precision\;double\;--check
         -DEXPECT=0 -DMATCH=bitwise.identical -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.skel_demo_too_many_gpus_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=skel-demo\;heat2d\;--device\;cuda:0\;--gpus\;64 -DEXPECT=2 -DMATCH=64.GPUs.requested
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.skel_demo_unknown_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=skel-demo\;lbm -DEXPECT=2 -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.bench_skeleton_cpu COMMAND tessera_cli bench skeleton --device cpu --size 24 --reps 2 --warmup 1
         --param gpus=1,2 --param steps=2)
set_tests_properties(cli.bench_skeleton_cpu PROPERTIES ENVIRONMENT "OMP_NUM_THREADS=2")
# skel-demo --checkpoint/--restart: 10 straight steps on one part and 4 + 6
# steps (saved on 2 parts, continued on 3) end in byte-identical checkpoints.
add_test(NAME cli.skel_demo_restart COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DDIR=${CMAKE_CURRENT_BINARY_DIR}/skel_restart -P ${CMAKE_CURRENT_SOURCE_DIR}/skeleton/skel_restart.cmake)
add_test(NAME cli.skel_demo_restart_mismatch_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DDIR=${CMAKE_CURRENT_BINARY_DIR}/skel_restart_mismatch -DMISMATCH=1
         -P ${CMAKE_CURRENT_SOURCE_DIR}/skeleton/skel_restart.cmake)
add_test(NAME interrupt.skel_demo_sigint COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DDIR=${CMAKE_CURRENT_BINARY_DIR}/skel_interrupt -DINTERRUPT=1
         -P ${CMAKE_CURRENT_SOURCE_DIR}/skeleton/skel_restart.cmake)
set_tests_properties(interrupt.skel_demo_sigint PROPERTIES LABELS reliability)
