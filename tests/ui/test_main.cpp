#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>

int main(int argc, char* argv[])
{
    // Test discovery runs the binary without the CTest environment; stay headless there too.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    // Settings go to a test location, never the user's real Tessera configuration.
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("Tessera"));
    QApplication::setApplicationName(QStringLiteral("TesseraUiTests"));
    QApplication app(argc, argv);
    QSettings().clear();

    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
