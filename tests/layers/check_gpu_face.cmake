# SPDX-License-Identifier: Apache-2.0
# Fails when a source under app/ or ui/ includes a gpu/ header other than its public face:
# tessera/gpu/engine.h (pipeline and runs), tessera/gpu/device_info.h (the device query) and tessera/gpu/kernels.h (the
# benchmark only). The values they share live in values/; ui/ includes nothing from gpu/.
# Run as: cmake -DSOURCE_DIR=<repo> -P check_gpu_face.cmake
cmake_policy(VERSION 3.25)
set(values "")
set(face engine.h device_info.h)
file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/app/*.cpp ${SOURCE_DIR}/app/*.h ${SOURCE_DIR}/ui/*.cpp ${SOURCE_DIR}/ui/*.h)
set(bad "")
foreach(source IN LISTS sources)
    file(STRINGS ${SOURCE_DIR}/${source} lines REGEX "^#include \"(tessera/)?gpu/")
    foreach(line IN LISTS lines)
        # gpu/'s internals ("gpu/plan/...") are never allowed; its face is "tessera/gpu/<header>".
        string(REGEX REPLACE "^#include \"(tessera/gpu/)?([^\"]+)\".*" "\\2" header "${line}")
        if(NOT line MATCHES "^#include \"tessera/gpu/")
            set(header "(internal) ${header}")
        endif()
        if(source MATCHES "^app/bench/")
            set(allowed ${face} kernels.h)
        elseif(source MATCHES "^ui/")
            set(allowed ${values})
        else()
            set(allowed ${face})
        endif()
        if(NOT header IN_LIST allowed)
            list(APPEND bad "${source}: ${header}")
        endif()
    endforeach()
endforeach()
if(bad)
    list(JOIN bad "\n  " text)
    message(FATAL_ERROR "includes past gpu/'s public face (use tessera/gpu/engine.h):\n  ${text}")
endif()
list(LENGTH sources count)
message(STATUS "${count} app/ and ui/ sources include only gpu/'s public face")
