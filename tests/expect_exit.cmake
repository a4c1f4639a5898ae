# Runs CMD with ARGS and checks its exit code is EXPECT (and, if given, that
# its output matches MATCH and does not match NOMATCH). CTest's WILL_FAIL
# cannot tell 1 from 2.
execute_process(COMMAND ${CMD} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "exit ${rc}\n${out}${err}")
if(NOT rc EQUAL EXPECT)
  message(FATAL_ERROR "expected exit code ${EXPECT}, got ${rc}")
endif()
if(DEFINED MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}'")
endif()
if(DEFINED NOMATCH AND "${out}${err}" MATCHES "${NOMATCH}")
  message(FATAL_ERROR "output matches '${NOMATCH}'")
endif()
