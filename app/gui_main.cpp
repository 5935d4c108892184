#include "app/build_config.h"
#include "app/gui_controller.h"
#include "ui/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QPixmap>
#include <QTimer>

#include <cstdio>

namespace {

// Long enough for the first layout and paint after show(), short enough for a CI check.
constexpr int kScreenshotDelayMs = 500;

}  // namespace

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Tessera"));
    QApplication::setApplicationName(QStringLiteral("Tessera"));
    QApplication::setApplicationVersion(QStringLiteral(TESSERA_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Tessera: 2D image convolution on CUDA GPUs."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("image"), QStringLiteral("Image file to open."),
                                 QStringLiteral("[IMAGE]"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Save a PNG of the window to PATH shortly after start, then quit."),
        QStringLiteral("PATH"));
    parser.addOption(screenshotOption);
    parser.process(app);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        std::fprintf(stderr, "tessera: expected at most one image, got %lld\n",
                     static_cast<long long>(positional.size()));
        return 2;
    }

    tessera::ui::MainWindow window;
    tessera::app::GuiController controller(window);
    const QString screenshot = parser.value(screenshotOption);
    // A headless check must never wait on a modal box; errors still reach the status bar.
    window.setModalDialogsEnabled(screenshot.isEmpty());
    controller.refreshDeviceInfo();
    window.show();
    if (!positional.isEmpty()) {
        controller.openImage(positional.first());
    }

    if (!screenshot.isEmpty()) {
        QTimer::singleShot(kScreenshotDelayMs, &window, [&window, screenshot] {
            const bool saved = window.grab().save(screenshot, "PNG");
            if (!saved) {
                std::fprintf(stderr, "tessera: could not save a screenshot to %s\n",
                             qPrintable(screenshot));
            }
            // A failed open also fails the check, so a broken loader cannot pass unnoticed.
            if (!window.lastError().isEmpty()) {
                std::fprintf(stderr, "tessera: %s\n", qPrintable(window.lastError()));
            }
            QApplication::exit(saved && window.lastError().isEmpty() ? 0 : 1);
        });
    }
    return QApplication::exec();
}
