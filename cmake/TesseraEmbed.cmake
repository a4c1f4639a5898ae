# tessera_embed_sources(<target> BASE <dir> FILES <f>...)
# Embeds OpenCL programs and the shared per-point headers into the binary so that
# the OpenCL backend compiles them at run time without files on disk. The names
# are the paths relative to BASE (e.g. "dense/kernels/dense.cl").
function(tessera_embed_sources target)
  cmake_parse_arguments(ARG "" "BASE" "FILES" ${ARGN})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${target}_embedded_sources.cpp)
  set(abs_files)
  foreach(f IN LISTS ARG_FILES)
    get_filename_component(a ${f} ABSOLUTE)
    list(APPEND abs_files ${a})
  endforeach()
  string(REPLACE ";" "|" files_arg "${abs_files}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DBASE=${ARG_BASE} "-DFILES=${files_arg}"
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_sources.cmake
    DEPENDS ${abs_files} ${PROJECT_SOURCE_DIR}/cmake/embed_sources.cmake
    COMMENT "Embedding kernel sources into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE ${out})
endfunction()
