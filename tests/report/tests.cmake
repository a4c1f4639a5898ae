# `tessera report` (included from tests/CMakeLists.txt; paths relative to tests/).
# Tiny sizes: every suite, the histories and report.py (plots only when
# matplotlib is there) in well under a minute on the CPU.
# Cross-cutting: these tests drive every module, so a build that leaves
# modules out (-DTESSERA_EXCLUDE_MODULES) has none of them.
if(TESSERA_EXCLUDE_MODULES)
  return()
endif()
set(TESSERA_REPORT_TINY
    --size stream=65536 --size dense=48 --size mg=63 --param mg.n3d=15 --param mg.streaming=0 --size mg-kernels=15 --size swe=48 --param swe.thesis-n=40
    --param swe.steps=2 --param spmv.parts=stencil --param spmv.laplace=12 --param gmres.cases=
    --param gmres.poisson=15 --size skeleton=16 --size lbm=16 --param lbm.thesis_sides=16
    --param lbm.thesis_iterations=4)
# Without a python3 the suites still run and results/ is checked instead.
find_program(TESSERA_REPORT_PYTHON3 python3)
if(TESSERA_REPORT_PYTHON3)
  set(TESSERA_REPORT_WRITER --python ${TESSERA_REPORT_PYTHON3})
  set(TESSERA_REPORT_PASS "report: .*report.md")
else()
  set(TESSERA_REPORT_WRITER --no-python)
  set(TESSERA_REPORT_PASS "results in .*results")
endif()
add_test(NAME cli.report_quick_cpu
         COMMAND tessera_cli report --quick --device cpu --strict --out ${CMAKE_CURRENT_BINARY_DIR}/report-quick-cpu
                 ${TESSERA_REPORT_WRITER} ${TESSERA_REPORT_TINY})
set_tests_properties(cli.report_quick_cpu PROPERTIES TIMEOUT 600 PASS_REGULAR_EXPRESSION "${TESSERA_REPORT_PASS}")
# A failing suite is reported and the others still run: exit 1 only with --strict.
string(REPLACE ";" "\\;" TESSERA_REPORT_TINY_ARGS "${TESSERA_REPORT_TINY}")
add_test(NAME cli.report_failed_suite_isolated COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=report\;--quick\;--device\;cpu\;--strict\;--no-histories\;--no-python\;--suites\;stream,gmres,mg\;--param\;gmres.cases=99\;--out\;${CMAKE_CURRENT_BINARY_DIR}/report-failed\;${TESSERA_REPORT_TINY_ARGS}
         -DEXPECT=1 -DMATCH=suite.gmres.failed -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.report_unknown_suite_exit2 COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=report\;--device\;cpu\;--suites\;stream,nosuch\;--out\;${CMAKE_CURRENT_BINARY_DIR}/report-x
         -DEXPECT=2 -DMATCH=unknown.suite..nosuch -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
add_test(NAME cli.report_in_parts COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DOUT=${CMAKE_CURRENT_BINARY_DIR}/report-parts -DTINY=${TESSERA_REPORT_TINY_ARGS}
         -P ${CMAKE_CURRENT_SOURCE_DIR}/report/report_in_parts.cmake)
