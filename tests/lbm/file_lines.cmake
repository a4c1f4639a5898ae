# cmake -DFILE=f -DLINES=n -DMATCH=regex -P file_lines.cmake: FILE exists,
# has exactly LINES lines, and its text matches MATCH.
file(STRINGS "${FILE}" lines)
list(LENGTH lines n)
if(NOT n EQUAL LINES)
  message(FATAL_ERROR "${FILE}: ${n} lines, expected ${LINES}")
endif()
file(READ "${FILE}" text)
if(NOT text MATCHES "${MATCH}")
  message(FATAL_ERROR "${FILE} does not match '${MATCH}'")
endif()
