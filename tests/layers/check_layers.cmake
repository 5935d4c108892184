# SPDX-License-Identifier: Apache-2.0
# The layering the build relies on beyond what the compiler keeps (tests/walls: what each
# library's sources can include), checked on the sources and on tessera-cli's link line. Fails
#   - when a file outside gpu/ includes a CUDA header or a .cuh (only gpu/ and its own tests in
#     tests/gpu/ are compiled with the CUDA toolkit in mind);
#   - when tessera-cli's link line names Qt Gui or Qt Widgets (the CLI runs on machines without a
#     display stack);
#   - when app/'s top level holds more than 12 sources (app/ is organised in subsystem folders).
# Run as: cmake -DSOURCE_DIR=<repo> -DBINARY_DIR=<build> -P check_layers.cmake
cmake_policy(VERSION 3.25)
set(bad "")

# CUDA headers only in gpu/ (and tests/gpu/, which builds fault cases with the runtime).
file(GLOB_RECURSE all_sources RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/app/*.cpp ${SOURCE_DIR}/app/*.h ${SOURCE_DIR}/ui/*.cpp ${SOURCE_DIR}/ui/*.h
     ${SOURCE_DIR}/filters/*.cpp ${SOURCE_DIR}/filters/*.h ${SOURCE_DIR}/values/*.cpp ${SOURCE_DIR}/values/*.h
     ${SOURCE_DIR}/files/*.cpp ${SOURCE_DIR}/files/*.h
     ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.h)
foreach(source IN LISTS all_sources)
    if(source MATCHES "^tests/gpu/")
        continue()
    endif()
    file(STRINGS ${SOURCE_DIR}/${source} lines
         REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]((cuda|cufft|cublas|curand|cusparse|npp|nvtx|nvToolsExt)[A-Za-z0-9_]*\\.h|cub/|thrust/|cuda/|[^\">]*\\.cuh)")
    foreach(line IN LISTS lines)
        list(APPEND bad "CUDA outside gpu/: ${source}: ${line}")
    endforeach()
endforeach()

# tessera-cli links neither Qt Gui nor Qt Widgets: its link command, as the generator wrote it.
set(link_line "")
if(EXISTS ${BINARY_DIR}/build.ninja)
    file(STRINGS ${BINARY_DIR}/build.ninja ninja)
    set(in_cli FALSE)
    foreach(line IN LISTS ninja)
        if(line MATCHES "^build [^:]*tessera-cli: [A-Z_]*LINKER")
            set(in_cli TRUE)
        elseif(in_cli AND line MATCHES "^build ")
            break()
        elseif(in_cli AND line MATCHES "^  LINK_LIBRARIES = ")
            set(link_line "${line}")
        endif()
    endforeach()
else()
    file(GLOB_RECURSE link_files ${BINARY_DIR}/*/tessera-cli.dir/link.txt)
    if(link_files)
        list(GET link_files 0 link_file)
        file(READ ${link_file} link_line)
    endif()
endif()
if(link_line STREQUAL "")
    list(APPEND bad "tessera-cli's link line not found under ${BINARY_DIR}")
elseif(link_line MATCHES "(Qt6?::|libQt6|Qt6)(Gui|Widgets)")
    list(APPEND bad "tessera-cli links Qt ${CMAKE_MATCH_2}: ${link_line}")
endif()

# app/'s top level: at most 12 sources.
file(GLOB top RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/app/*.cpp ${SOURCE_DIR}/app/*.h ${SOURCE_DIR}/app/*.cu)
list(LENGTH top top_count)
if(top_count GREATER 12)
    list(JOIN top ", " names)
    list(APPEND bad "app/ holds ${top_count} sources at its top level (at most 12; put them in a subsystem folder): ${names}")
endif()

if(bad)
    list(JOIN bad "\n  " text)
    message(FATAL_ERROR "layering broken:\n  ${text}")
endif()
list(LENGTH all_sources source_count)
message(STATUS "layers hold: no CUDA in ${source_count} sources outside gpu/, "
               "tessera-cli without Qt Gui/Widgets, ${top_count} sources at app/'s top level")
