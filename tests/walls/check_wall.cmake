# SPDX-License-Identifier: Apache-2.0
# One wall: CONTROL must compile, VIOLATION (the control plus one forbidden include) must fail,
# and fail because MISSING cannot be found, not for another reason.
# Run as: cmake -DBINARY_DIR=<build> -DCONTROL=<target> -DVIOLATION=<target> -DMISSING=<header>
#         -P check_wall.cmake
cmake_policy(VERSION 3.25)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} --target ${CONTROL}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the control ${CONTROL} does not compile, so the wall proves nothing:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} --target ${VIOLATION}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
    message(FATAL_ERROR "${VIOLATION} compiled: the wall does not hold, ${MISSING} is reachable")
endif()
string(FIND "${out}" "${MISSING}: No such file or directory" at)
if(at EQUAL -1)
    message(FATAL_ERROR "${VIOLATION} failed, but not because ${MISSING} is out of reach:\n${out}")
endif()
message(STATUS "${VIOLATION} cannot reach ${MISSING}; ${CONTROL} compiles")
