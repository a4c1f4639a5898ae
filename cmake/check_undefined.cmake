# Run as `cmake -DNM=<nm> -DFILE=<shared object> -P check_undefined.cmake`
# after linking a shared object (the Python module): fails the build when
# the object leaves a tessera symbol undefined. The CUDA launchers of the
# skeletons are templates instantiated per user functor in .cu files
# (skel_examples_cuda.cu); a combination the bindings call but nobody
# instantiated links into a shared object fine and fails only at import
# ("undefined symbol ... cuda_for_boxes<...>"): here it fails the build.
execute_process(COMMAND ${NM} -D -C -u ${FILE} OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_undefined: ${NM} -D -C -u ${FILE} failed (${rc})")
endif()
string(REGEX MATCHALL "[^\n]*tessera::[^\n]*" missing "${undefined}")
if(missing)
  list(JOIN missing "\n" text)
  message(FATAL_ERROR "${FILE} leaves tessera symbols undefined (a CUDA instantiation missing "
                      "from a .cu file, or a declared function nobody defines):\n${text}")
endif()
