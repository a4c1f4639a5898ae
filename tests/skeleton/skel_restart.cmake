# tessera skel-demo --checkpoint / --restart (-DCMD=tessera -DDIR=folder).
# Without MISMATCH: blur3d 10 steps on 1 part, and 4 steps on 2 parts then 6
# more restarted on 3 parts, must leave byte-identical checkpoints (values and
# step 10). With MISMATCH: a restart with another --size exits 2 naming the
# extents in the file and in the field. With INTERRUPT: a SIGINT stops the run
# at a step boundary (exit 130, checkpoint) and the checkpoint continues it to
# the straight run's end, byte for byte.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
function(run expect)
  execute_process(COMMAND ${CMD} skel-demo blur3d --device cpu --precision double ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL expect)
    message(FATAL_ERROR "skel-demo ${ARGN}: exit ${rc}, expected ${expect}\n${o}\n${e}")
  endif()
  set(out "${o}${e}" PARENT_SCOPE)
endfunction()
if(INTERRUPT)  # SIGINT (fault injection) at step 20, polled at step 32: exit 130 with a checkpoint that continues
  run(0 --size 13 --gpus 1 --steps 100 --checkpoint ${DIR}/straight.ckpt)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env TESSERA_FAULT=sigint_at_step:20
                          ${CMD} skel-demo blur3d --device cpu --precision double --size 13 --gpus 2 --steps 100
                          --checkpoint ${DIR}/int.ckpt
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 130 OR NOT "${o}${e}" MATCHES "interrupted by SIGINT after step 32: checkpoint .*int.ckpt .continue with --restart .*int.ckpt --steps 68.")
    message(FATAL_ERROR "interrupted run: exit ${rc}\n${o}\n${e}")
  endif()
  run(0 --size 13 --gpus 3 --steps 68 --restart ${DIR}/int.ckpt --checkpoint ${DIR}/continued.ckpt)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/straight.ckpt ${DIR}/continued.ckpt RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    message(FATAL_ERROR "the run continued after SIGINT differs from the straight run")
  endif()
  return()
endif()
if(MISMATCH)
  run(0 --size 13 --gpus 2 --steps 2 --checkpoint ${DIR}/a.ckpt)
  run(2 --gpus 2 --steps 2 --size 14 --restart ${DIR}/a.ckpt)
  if(NOT out MATCHES "extents 13x13x13 in the file, 14x14x14 in the field")
    message(FATAL_ERROR "mismatch message: ${out}")
  endif()
  return()
endif()
run(0 --size 13 --gpus 1 --steps 10 --checkpoint ${DIR}/straight.ckpt)
run(0 --size 13 --gpus 2 --steps 4 --checkpoint ${DIR}/first.ckpt)
if(NOT out MATCHES "checkpoint: .*first.ckpt .step 4.")
  message(FATAL_ERROR "no checkpoint line: ${out}")
endif()
run(0 --size 13 --gpus 3 --steps 6 --restart ${DIR}/first.ckpt --checkpoint ${DIR}/continued.ckpt --check)
if(NOT out MATCHES "restarted from .*first.ckpt at step 4" OR NOT out MATCHES "bitwise identical")
  message(FATAL_ERROR "restart output: ${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/straight.ckpt ${DIR}/continued.ckpt RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "the restarted run's checkpoint differs from the straight run's")
endif()
