# tessera_embed_sources(<target> BASE <dir> FILES <f>...)
# Embeds OpenCL programs and the shared per-point headers into the binary so that
# the OpenCL backend compiles them at run time without files on disk. The names
# are the paths relative to BASE (e.g. "dense/kernels/dense.cl"). Each module
# may call it; one table is generated at the end of the calling directory.
function(tessera_embed_sources target)
  cmake_parse_arguments(ARG "" "BASE" "FILES" ${ARGN})
  foreach(f IN LISTS ARG_FILES)
    get_filename_component(a ${f} ABSOLUTE)
    set_property(GLOBAL APPEND PROPERTY TESSERA_EMBED_FILES_${target} ${a})
  endforeach()
  set_property(GLOBAL PROPERTY TESSERA_EMBED_BASE_${target} ${ARG_BASE})
  get_property(scheduled GLOBAL PROPERTY TESSERA_EMBED_SCHEDULED_${target})
  if(NOT scheduled)
    set_property(GLOBAL PROPERTY TESSERA_EMBED_SCHEDULED_${target} TRUE)
    # Deferred arguments are expanded at call time: bake the target name in now.
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _tessera_embed_generate [[${target}]])")
  endif()
endfunction()

function(_tessera_embed_generate target)
  get_property(files GLOBAL PROPERTY TESSERA_EMBED_FILES_${target})
  get_property(base GLOBAL PROPERTY TESSERA_EMBED_BASE_${target})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${target}_embedded_sources.cpp)
  string(REPLACE ";" "|" files_arg "${files}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DBASE=${base} "-DFILES=${files_arg}"
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_sources.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/embed_sources.cmake
    COMMENT "Embedding kernel sources into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE ${out})
endfunction()
