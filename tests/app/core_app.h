// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace tessera::test {

/// The process's QCoreApplication (for queued signals), made by whichever test asks first.
inline QCoreApplication& coreApp()
{
    if (QCoreApplication* existing = QCoreApplication::instance()) {
        return *existing;
    }
    static int argc = 1;
    static char name[] = "tessera_app_tests";
    static char* argv[] = {name, nullptr};
    static QCoreApplication instance(argc, argv);
    return instance;
}

}  // namespace tessera::test
