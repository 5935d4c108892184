# SPDX-License-Identifier: Apache-2.0
# Builds the tessera wheel offline (the tessera_wheel target runs this):
#   cmake -DSOURCE=<tree> -DLIBRARY=<libtessera.so.0> -DCOMMIT_SOURCE=<lib/generated/commit_id.cpp>
#         -DSTRIP=<strip> -DPYTHON=<python3> -DSTAGE=<folder> -DDIST=<folder> -DVERSION=<x.y.z>
#         -P build_wheel.cmake
# The package's files and the stripped library are staged in STAGE, and pip builds the wheel from
# there with the setuptools and wheel the interpreter already has (no index, no isolation), into
# DIST. The wheel's version is VERSION with the library's commit as a local part.
file(REMOVE_RECURSE ${STAGE})
file(MAKE_DIRECTORY ${STAGE}/tessera ${DIST})
file(COPY ${SOURCE}/python/pyproject.toml ${SOURCE}/python/setup.py DESTINATION ${STAGE})
file(GLOB package_files ${SOURCE}/python/tessera/*.py ${SOURCE}/python/tessera/py.typed)
file(COPY ${package_files} DESTINATION ${STAGE}/tessera)
execute_process(COMMAND ${STRIP} --strip-unneeded -o ${STAGE}/tessera/libtessera.so.0 ${LIBRARY}
                RESULT_VARIABLE failed)
if(failed)
    message(FATAL_ERROR "strip ${LIBRARY} failed")
endif()

set(version ${VERSION})
file(READ ${COMMIT_SOURCE} commit_text)
if(commit_text MATCHES "kBuildCommit = \"([0-9a-f]+)(\\.dirty)?\"")
    string(APPEND version "+g${CMAKE_MATCH_1}")
    if(CMAKE_MATCH_2)
        string(APPEND version ".dirty")
    endif()
endif()

file(GLOB old_wheels ${DIST}/tessera-*.whl)
if(old_wheels)
    file(REMOVE ${old_wheels})
endif()
execute_process(
    COMMAND ${CMAKE_COMMAND} -E env TESSERA_WHEEL_VERSION=${version}
            ${PYTHON} -m pip wheel --no-build-isolation --no-index --no-deps --quiet -w ${DIST} ${STAGE}
    RESULT_VARIABLE failed)
if(failed)
    message(FATAL_ERROR "pip wheel failed (it needs ${PYTHON} with pip, setuptools and wheel: "
                        "packaging/install-deps.sh ci installs python3-pip, python3-setuptools, python3-wheel)")
endif()
file(GLOB wheels ${DIST}/tessera-*.whl)
message(STATUS "tessera wheel: ${wheels}")
