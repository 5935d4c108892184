// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

int main(int argc, char* argv[])
{
    // Test discovery runs the binary without the CTest environment; stay headless there too.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    // Settings go to a test location, never the user's real Tessera configuration, and to a
    // folder of this process's own: CTest runs tests of this binary in parallel processes.
    QStandardPaths::setTestModeEnabled(true);
    const QTemporaryDir settingsDir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
    QApplication::setOrganizationName(QStringLiteral("Tessera"));
    QApplication::setApplicationName(QStringLiteral("TesseraUiTests"));
    QApplication app(argc, argv);
    QSettings().clear();

    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
