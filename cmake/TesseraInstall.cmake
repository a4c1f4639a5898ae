# Installation and the CMake package: `cmake --install build --prefix P` puts
#   P/lib/libtessera.a, P/bin/tessera,
#   P/include/tessera/<module>/...hpp (the headers of src/, as the library
#   includes them: "core/device.hpp"), P/include/tessera/config.hpp,
#   P/lib/cmake/tessera/tesseraConfig.cmake (+ version, exported targets),
# so that a project uses it with
#   find_package(tessera CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE tessera::tessera)
# (examples/ and scripts/test-examples.sh prove it).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(tessera::tessera ALIAS tessera)

set(TESSERA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/tessera)

# tessera_flags (warnings, -ffp-contract=off) is linked privately; a static
# library exports its private link items as LINK_ONLY, so it must be exported
# too (it adds nothing to a consumer's compile lines).
install(TARGETS tessera tessera_flags EXPORT tesseraTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS tessera_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# the report writer `tessera report` runs (found at <prefix>/share/tessera/report)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/tessera_report/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tessera/report
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)

# Public headers: every header of src/ keeps its path (the per-point .h
# headers are included by the kernel declarations), plus the generated config.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/bench/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera/bench
        FILES_MATCHING PATTERN "*.hpp" PATTERN "results" EXCLUDE PATTERN "probes" EXCLUDE
        PATTERN "cli" EXCLUDE)
install(FILES ${CMAKE_BINARY_DIR}/generated/tessera/config.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera)

install(EXPORT tesseraTargets NAMESPACE tessera:: DESTINATION ${TESSERA_INSTALL_CMAKEDIR})

# What the exported link interface names, for find_dependency in the config.
set(TESSERA_PACKAGE_NETCDF ${TESSERA_SWE_NETCDF})
if(NOT TESSERA_PACKAGE_NETCDF)
  set(TESSERA_PACKAGE_NETCDF OFF)
endif()
set(TESSERA_PACKAGE_GDAL ${TESSERA_SWE_GDAL})
if(NOT TESSERA_PACKAGE_GDAL)
  set(TESSERA_PACKAGE_GDAL OFF)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tesseraConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/tesseraConfig.cmake INSTALL_DESTINATION ${TESSERA_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/tesseraConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/tesseraConfig.cmake ${CMAKE_BINARY_DIR}/package/tesseraConfigVersion.cmake
        DESTINATION ${TESSERA_INSTALL_CMAKEDIR})
