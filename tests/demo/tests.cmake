# demo: `tessera demo --quick` on the CPU (every section must say correct),
# usage errors, and the page opened in headless Chromium (paths relative to tests/).
# The page pieces (base64, escaping, PNG read back with libpng, plot, page).
target_sources(tessera_tests PRIVATE demo/test_demo_page.cpp)
find_package(PNG REQUIRED)
target_link_libraries(tessera_tests PRIVATE PNG::PNG)
set(DEMO_QUICK_DIR ${CMAKE_BINARY_DIR}/demo-quick)
add_test(NAME demo.quick_cpu COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli> -DOUT=${DEMO_QUICK_DIR}
         -P ${CMAKE_CURRENT_SOURCE_DIR}/demo/check_demo.cmake)
set_tests_properties(demo.quick_cpu PROPERTIES FIXTURES_SETUP demo_page TIMEOUT 900)
add_test(NAME demo.browser COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/demo/browser_test.sh ${DEMO_QUICK_DIR}/index.html
         ${CMAKE_BINARY_DIR}/demo-screenshot.png)
set_tests_properties(demo.browser PROPERTIES FIXTURES_REQUIRED demo_page SKIP_RETURN_CODE 77 TIMEOUT 120)
add_test(NAME demo.needs_out_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli> -DARGS=demo\;--quick -DEXPECT=2
         -DMATCH=--out -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME demo.unknown_device_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=demo\;--quick\;--device\;gpu7\;--out\;${CMAKE_BINARY_DIR}/demo-never -DEXPECT=2 -DMATCH=gpu7
         -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
# The API reference: Doxygen warnings in public headers fail (skipped without doxygen).
add_test(NAME docs.doxygen COMMAND sh -c "command -v doxygen >/dev/null || { echo 'SKIPPED: doxygen is not installed'; exit 77; }; exec \"$0\" \"$1\""
         ${PROJECT_SOURCE_DIR}/scripts/doxygen.sh ${CMAKE_BINARY_DIR}/doxygen)
set_tests_properties(docs.doxygen PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
