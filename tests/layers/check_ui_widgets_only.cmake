# SPDX-License-Identifier: Apache-2.0
# Fails when ui/ reaches up into app/, reads or writes files, or defines a value of the document
# (the filter choice, a stack entry, the stack state: they live in filters/filter_stack_model.h,
# and app::Document holds them). Run as: cmake -DSOURCE_DIR=<repo> -P check_ui_widgets_only.cmake
cmake_policy(VERSION 3.25)
file(GLOB sources RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/ui/*.cpp ${SOURCE_DIR}/ui/*.h)
set(bad "")
foreach(source IN LISTS sources)
    file(STRINGS ${SOURCE_DIR}/${source} lines
         REGEX "^#include \"app/|^#include <(QFile|QSaveFile|fstream)>|filters/preset_io\\.h|^ *struct (FilterChoice|StackEntry|StackState)( |{|$)")
    foreach(line IN LISTS lines)
        list(APPEND bad "${source}: ${line}")
    endforeach()
endforeach()
if(bad)
    list(JOIN bad "\n  " text)
    message(FATAL_ERROR "ui/ holds only widgets (no app/ include, no file I/O, no document type):\n  ${text}")
endif()
list(LENGTH sources count)
message(STATUS "${count} ui/ sources hold only widgets")
