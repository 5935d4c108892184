# Every source file of Tessera names its licence in one of its first three lines
# ("SPDX-License-Identifier: Apache-2.0"): C++ and CUDA sources and headers, CMake files, shell
# and Python scripts in the project's folders. Fails listing the files without it.
#   cmake -DSOURCE_DIR=<repo> -P check_spdx.cmake
set(folders app ui gpu filters values files tests python packaging docs .ci)
set(missing "")
set(count 0)
foreach(folder IN LISTS folders)
    file(GLOB_RECURSE sources LIST_DIRECTORIES false RELATIVE ${SOURCE_DIR}
         ${SOURCE_DIR}/${folder}/*.h ${SOURCE_DIR}/${folder}/*.cpp ${SOURCE_DIR}/${folder}/*.cu
         ${SOURCE_DIR}/${folder}/*.cuh ${SOURCE_DIR}/${folder}/*.cmake ${SOURCE_DIR}/${folder}/CMakeLists.txt
         ${SOURCE_DIR}/${folder}/*.sh ${SOURCE_DIR}/${folder}/*.py ${SOURCE_DIR}/${folder}/*.sbatch)
    foreach(source IN LISTS sources)
        if(source MATCHES "/(corpus|regressions|__pycache__)/")
            continue()
        endif()
        math(EXPR count "${count} + 1")
        file(STRINGS ${SOURCE_DIR}/${source} head LIMIT_COUNT 3)
        if(NOT head MATCHES "SPDX-License-Identifier: Apache-2.0")
            list(APPEND missing ${source})
        endif()
    endforeach()
endforeach()
foreach(top CMakeLists.txt .ci/run)
    math(EXPR count "${count} + 1")
    file(STRINGS ${SOURCE_DIR}/${top} head LIMIT_COUNT 3)
    if(NOT head MATCHES "SPDX-License-Identifier: Apache-2.0")
        list(APPEND missing ${top})
    endif()
endforeach()
list(LENGTH missing bad)
if(bad GREATER 0)
    list(JOIN missing "\n  " listing)
    message(FATAL_ERROR "${bad} of ${count} source files have no SPDX-License-Identifier line in their first three lines:\n  ${listing}")
endif()
message(STATUS "${count} source files name their licence")
