# Reliability (docs/reliability.md): reader regressions found by fuzzing and
# the sanitizers, fault injection (TESSERA_FAULT) and clean interruption
# (SIGINT/SIGTERM) through the command line, and the `parity` label.
target_sources(tessera_tests PRIVATE reliability/test_reader_regressions.cpp)

set(REL_DIR ${CMAKE_CURRENT_BINARY_DIR}/reliability_cli)
file(MAKE_DIRECTORY ${REL_DIR})
set(REL_RUN ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>)
set(REL_SCRIPT -P ${CMAKE_CURRENT_SOURCE_DIR}/reliability/run_check.cmake)
# fault.* tests run with TESSERA_FAULT=<point>; each has its own files.
function(rel_fault name fault)
  add_test(NAME ${name} COMMAND ${REL_RUN} ${ARGN} ${REL_SCRIPT})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "TESSERA_FAULT=${fault};TESSERA_CACHE_DIR=${REL_DIR}/cache"
                       LABELS reliability)
endfunction()

# --- allocation failures: OutOfMemory, exit 1, nothing leaked (asan preset) ---
rel_fault(fault.device_alloc_cpu device_alloc
  -DARGS=bench|stream|--device|cpu|--size|100000|--reps|1|--warmup|0 -DEXPECT=1 -DMATCH=out.of.memory.on.cpu:.needed)
rel_fault(fault.device_alloc_cpu_third device_alloc:3
  -DARGS=lbm|--case|cavity|--lattice|D2Q9|--size|16|--steps|10|--device|cpu -DEXPECT=1 -DMATCH=out.of.memory.on.cpu)
rel_fault(fault.host_alloc_cpu host_alloc
  -DARGS=sparse|spmv|--generate|trace:3x5x4,blocks=2|--kernel|csr-scalar|--device|cpu|--reps|1|--transfers
  -DEXPECT=1 -DMATCH=out.of.memory.on.cpu..pinned.host.memory)
if(TESSERA_HAVE_OPENCL)
  rel_fault(fault.device_alloc_opencl device_alloc:2
    -DARGS=bench|dense|--device|opencl:0:0|--size|33|--reps|1|--warmup|0 -DEXPECT=1 -DMATCH=out.of.memory.on.opencl:0:0)
  rel_fault(fault.host_alloc_opencl host_alloc
    -DARGS=sparse|spmv|--generate|trace:3x5x4,blocks=2|--kernel|csr-scalar|--device|opencl:0:0|--reps|1|--transfers
    -DEXPECT=1 -DMATCH=pinned.host.memory)
  # --- OpenCL build failure: BuildError naming the program, exit 1 ---
  rel_fault(fault.opencl_build opencl_build
    -DARGS=bench|dense|--device|opencl:0:0|--size|33|--reps|1|--warmup|0 -DEXPECT=1
    -DMATCH=OpenCL.build.of.*CL_BUILD_PROGRAM_FAILURE)
endif()

# --- write failures (ENOSPC at write, EACCES at open/rename): exit 1, the
#     previous checkpoint intact, no temporary left ---
set(REL_LBM lbm|--case|cavity|--lattice|D2Q9|--size|16|--steps|20|--device|cpu)
add_test(NAME fault.write_setup COMMAND tessera_cli lbm --case cavity --lattice D2Q9 --size 16 --steps 10 --device cpu
         --checkpoint ${REL_DIR}/w.ckpt)
set_tests_properties(fault.write_setup PROPERTIES FIXTURES_SETUP rel_write)
foreach(point_errno write:No.space.left write_open:Permission.denied write_rename:Permission.denied)
  string(REPLACE ":" ";" pe ${point_errno})
  list(GET pe 0 point)
  list(GET pe 1 reason)
  rel_fault(fault.${point}_checkpoint ${point}
    -DARGS=${REL_LBM}|--checkpoint|${REL_DIR}/w.ckpt -DEXPECT=1 -DMATCH=cannot.write.*w.ckpt.*${reason}
    -DUNCHANGED=${REL_DIR}/w.ckpt -DNO_TMP_IN=${REL_DIR})
  set_tests_properties(fault.${point}_checkpoint PROPERTIES FIXTURES_REQUIRED rel_write RESOURCE_LOCK rel_write_dir)
endforeach()
# The intact checkpoint still restarts.
add_test(NAME fault.write_restart_after COMMAND tessera_cli lbm --case cavity --lattice D2Q9 --size 16 --steps 5
         --device cpu --restart ${REL_DIR}/w.ckpt)
set_tests_properties(fault.write_restart_after PROPERTIES FIXTURES_REQUIRED rel_write
                     DEPENDS "fault.write_checkpoint;fault.write_open_checkpoint;fault.write_rename_checkpoint")
# A sparse output that cannot be written (exit 1, nothing half-written).
rel_fault(fault.write_sparse_output write
  -DARGS=sparse|generate|trace:3x5x4,blocks=2|${REL_DIR}/never.mtx -DEXPECT=1 -DMATCH=never.mtx.*No.space.left
  -DNO_TMP_IN=${REL_DIR})
rel_fault(fault.unknown_point_exit2 bogus_point
  -DARGS=bench|stream|--device|cpu|--size|1000|--reps|1 -DEXPECT=2 -DMATCH=TESSERA_FAULT)

# --- clean interruption: exit 130/143 at a step boundary, checkpoint + outputs ---
rel_fault(interrupt.lbm_sigint sigint_at_step:2
  -DARGS=lbm|--case|cavity|--lattice|D2Q9|--size|16|--steps|100000|--device|cpu|--out|${REL_DIR}/lbm_int|--checkpoint|${REL_DIR}/int.ckpt
  -DEXPECT=130 -DMATCH=interrupted.by.SIGINT.after.step.128.*int.ckpt -DEXISTS=${REL_DIR}/int.ckpt|${REL_DIR}/lbm_int/cavity_00000128.vti)
set_tests_properties(interrupt.lbm_sigint PROPERTIES FIXTURES_SETUP rel_int)
# The checkpoint it wrote continues the run (the time is 128).
add_test(NAME interrupt.lbm_restart COMMAND ${REL_RUN}
  -DARGS=lbm|--case|cavity|--lattice|D2Q9|--size|16|--steps|10|--device|cpu|--restart|${REL_DIR}/int.ckpt|--json|${REL_DIR}/int_restart.json
  -DEXPECT=0 -DEXISTS=${REL_DIR}/int_restart.json ${REL_SCRIPT})
set_tests_properties(interrupt.lbm_restart PROPERTIES FIXTURES_REQUIRED rel_int)
# Without --checkpoint the checkpoint goes next to the outputs.
rel_fault(interrupt.lbm_sigterm_default_checkpoint sigterm_at_step:1
  -DARGS=lbm|--case|tgv|--lattice|D2Q9|--size|16|--steps|1000|--device|cpu|--out|${REL_DIR}/lbm_term
  -DEXPECT=143 -DMATCH=SIGTERM.after.step.64 -DEXISTS=${REL_DIR}/lbm_term/tgv_00000064.ckpt)
# A real signal from outside, sent once the run is stepping (timing decides
# only how far the run got).
add_test(NAME interrupt.lbm_real_sigint COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/reliability/real_sigint.sh
         $<TARGET_FILE:tessera_cli> ${REL_DIR}/real_sigint)
set_tests_properties(interrupt.lbm_real_sigint PROPERTIES LABELS reliability TIMEOUT 300)
# swe: the interrupted run names its checkpoint (--checkpoint, else
# <out>/swe_<step>.ckpt); a signal at the last check just finishes the run.
rel_fault(interrupt.swe_physical_sigint sigint_at_step:2
  -DARGS=swe|--case|ritter|--nx|64|--device|cpu|--out|${REL_DIR}/swe_int|--format|vti
  -DEXPECT=130 -DMATCH=interrupted.by.SIGINT.after.step.32:.checkpoint.*swe_int/swe_00000032.ckpt.*last.output.*swe_int
  -DEXISTS=${REL_DIR}/swe_int/swe_00000032.ckpt)
rel_fault(interrupt.swe_thesis_sigterm sigterm_at_step:5
  -DARGS=swe|--model|thesis|--case|thesis-dam|--nx|32|--device|cpu|--checkpoint|${REL_DIR}/swe_term.ckpt
  -DEXPECT=143 -DMATCH=interrupted.by.SIGTERM.after.step.5:.checkpoint.*swe_term.ckpt -DEXISTS=${REL_DIR}/swe_term.ckpt)

# --- parity: every module's canonical backend-vs-CPU tests in one CTest entry
#     (gtest cases are discovered individually, so the label goes on a run of
#     tessera_tests filtered to them): `ctest -L parity`. On the GPU machine it
#     covers CUDA and NVIDIA OpenCL as well (test::device_ids()), and the
#     multi-part (1 vs 2+ devices) skeleton and LBM cases.
set(PARITY_FILTER
  "*DenseTest.Elementwise*:*DenseTest.Reductions*:*MatmulTest.SmallShapes*:*MatmulTest.VectorAdd*"
  ":*MgDeviceTest.BitwiseEqualToCpu*:*MgThesisDeviceTest.BitwiseEqualToCpu*"
  ":*SpmvDevice.RandomMatrices*:*SpmvDevice.TraceCase*"
  ":*KrylovKernels.DotsAreHermitianAndMatchTheCpuBitwise*:*KrylovKernels.CombineMatchesReferenceAndCpu*"
  ":*SwePhysical.EveryBackendMatchesTheCpu*:*SweThesisDevice.EveryVariantMatchesTheReferenceBitwise*"
  ":*LbmBackends.BitwiseEqualToCpuForEveryVariant*:*LbmBackends.MomentsEqualToCpu*"
  ":*LbmThesisBackends.NativeKernelEqualsTheMuesliFunctorBitwise*:*LbmThesisBackends.SlabsOnSeveralDevices*"
  ":*SkeletonMap.EverySkeletonOnDcMatchesTheSequentialLoop*:*SkeletonStencil.EveryBoundaryModeAndRadiusMatchesTheReference*"
  ":*SkeletonStencil.OneToFourPartsEqualOnePartBitwise*")
string(REPLACE ";" "" PARITY_FILTER "${PARITY_FILTER}")
add_test(NAME parity COMMAND tessera_tests --gtest_filter=${PARITY_FILTER})
set_tests_properties(parity PROPERTIES LABELS parity ENVIRONMENT "TESSERA_CACHE_DIR=${CMAKE_BINARY_DIR}/test-cache"
                     TIMEOUT 1500)

# --- host memory: a failed host allocation says how many bytes it needed ---
# (virtual memory capped by ulimit; not under AddressSanitizer, which maps
# terabytes of shadow memory at start-up)
if(NOT CMAKE_CXX_FLAGS MATCHES "sanitize=address")
  add_test(NAME fault.host_memory_ulimit COMMAND ${CMAKE_COMMAND} -DCMD=sh
           "-DARGS=-c|ulimit -v 2500000 && exec \"$0\" sparse generate trace:80x160x80 \"$1\"|$<TARGET_FILE:tessera_cli>|${REL_DIR}/never_big.mtx"
           -DEXPECT=1 "-DMATCH=out of host memory: an allocation of [1-9][0-9]* bytes" ${REL_SCRIPT})
  set_tests_properties(fault.host_memory_ulimit PROPERTIES LABELS reliability)
endif()

# --- forged but well-formed checkpoints (issue 40, item 5): a real checkpoint
#     with one header field rewritten and the checksum re-sealed
#     (CheckpointMeaningCli.Forge in test_checkpoint_meaning.cpp) is refused on
#     restart with exit 1 naming the file and the field, and nothing is
#     written to --out. rel_forged(name source field value match
#     restart-args...); the unit tests are CheckpointMeaning.*.
target_sources(tessera_tests PRIVATE reliability/test_checkpoint_meaning.cpp)
add_test(NAME restart.forged_clean COMMAND ${CMAKE_COMMAND} -E rm -rf ${REL_DIR}/forge_src_lbm.ckpt
         ${REL_DIR}/forge_src_swe.ckpt ${REL_DIR}/forge_src_swe_out ${REL_DIR}/forged_lbm_time.ckpt
         ${REL_DIR}/forged_lbm_time_out ${REL_DIR}/forged_swe_outputs.ckpt ${REL_DIR}/forged_swe_outputs_out)
set_tests_properties(restart.forged_clean PROPERTIES FIXTURES_SETUP rel_forged_clean)
add_test(NAME restart.forged_source_lbm COMMAND tessera_cli lbm --case cavity --lattice D2Q9 --size 16 --steps 10
         --device cpu --checkpoint ${REL_DIR}/forge_src_lbm.ckpt)
add_test(NAME restart.forged_source_swe COMMAND tessera_cli swe --case ritter --nx 32 --t-end 0.1 --device cpu
         --format vti --out ${REL_DIR}/forge_src_swe_out --checkpoint ${REL_DIR}/forge_src_swe.ckpt)
foreach(k lbm swe)
  set_tests_properties(restart.forged_source_${k} PROPERTIES FIXTURES_SETUP rel_forged_src_${k}
                       FIXTURES_REQUIRED rel_forged_clean)
endforeach()
function(rel_forged name source field value match)
  string(REPLACE ";" "|" args "${ARGN}")
  set(forged ${REL_DIR}/forged_${name}.ckpt)
  set(out ${REL_DIR}/forged_${name}_out)
  add_test(NAME restart.forged_${name}_make COMMAND tessera_tests --gtest_filter=CheckpointMeaningCli.Forge)
  set_tests_properties(restart.forged_${name}_make PROPERTIES
    ENVIRONMENT "TESSERA_FORGE_IN=${REL_DIR}/forge_src_${source}.ckpt;TESSERA_FORGE_OUT=${forged};TESSERA_FORGE_FIELD=${field};TESSERA_FORGE_VALUE=${value}"
    FIXTURES_REQUIRED rel_forged_src_${source} FIXTURES_SETUP rel_forged_${name})
  add_test(NAME restart.forged_${name}_exit1 COMMAND ${REL_RUN} -DARGS=${args}|--restart|${forged}|--out|${out}
           -DEXPECT=1 -DMATCH=forged_${name}.ckpt:.not.a.valid.*${match} ${REL_SCRIPT})
  set_tests_properties(restart.forged_${name}_exit1 PROPERTIES LABELS reliability FIXTURES_REQUIRED rel_forged_${name}
                       FIXTURES_SETUP rel_forged_${name}_ran)
  # nothing in --out (the folder itself may have been created)
  add_test(NAME restart.forged_${name}_no_output COMMAND sh -c "test -z \"$(ls -A \"$0\" 2>/dev/null)\" || { ls -l \"$0\"; exit 1; }" ${out})
  set_tests_properties(restart.forged_${name}_no_output PROPERTIES LABELS reliability FIXTURES_REQUIRED rel_forged_${name}_ran)
endfunction()
# a time of 2^62: today's reader ran on and named its files cavity_4611686018427388004.vti
rel_forged(lbm_time lbm /time 4611686018427387904 header:.'time'.=.4611686018427387904.is.outside.0..2.53
  lbm --case cavity --lattice D2Q9 --size 16 --steps 100 --device cpu)
# an output counter of 2^62: the restarted run skipped its final output and exited 0
rel_forged(swe_outputs swe /run/outputs 4611686018427387904 'outputs'.=.4611686018427387904.is.outside
  swe --case ritter --nx 32 --t-end 0.2 --device cpu --format vti)
