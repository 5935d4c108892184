// SPDX-License-Identifier: Apache-2.0
#include "app/build_config.h"
#include "app/cli/cli_filter_options.h"
#include "app/gui/gui_controller.h"
#include "files/temp_files.h"
#include "app/tour/screenshot_tour.h"
#include "filters/registry.h"
#include "filters/filter_stack_model.h"
#include "ui/image_view.h"
#include "ui/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QGuiApplication>
#include <QIcon>
#include <QPixmap>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

// Long enough for the first layout and paint after show(), short enough for a CI check.
constexpr int kScreenshotDelayMs = 500;
// A preview on the CPU path of a large image can take a while.
constexpr int kPreviewTimeoutMs = 30000;

bool asksHelpOrVersion(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--help" || a == "-h" || a == "-?" || a == "--help-all" || a == "--version" || a == "-v") {
            return true;
        }
    }
    return false;
}

/// The icon from the theme when Tessera is installed, else the copies built into the program.
QIcon windowIcon()
{
    QIcon builtIn;
    for (const int size : {16, 24, 32, 48, 64, 128, 256}) {
        builtIn.addFile(QStringLiteral(":/icons/tessera-%1.png").arg(size), QSize(size, size));
    }
    return QIcon::fromTheme(QStringLiteral("io.github.tessera.Tessera"), builtIn);
}

/// SIGTERM, SIGINT and SIGHUP end the window as they would by default (the exit status tells
/// the signal: 143 for SIGTERM), but first remove the temporary of a save in flight, so that a
/// session's logout or a Ctrl+C in the terminal leaves no half-written file behind.
extern "C" void onTerminatingSignal(int signal)
{
    tessera::files::removeLiveTemporaries();
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

void removeTemporariesOnTerminatingSignals()
{
    for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
        std::signal(signal, onTerminatingSignal);
    }
}

}  // namespace

int main(int argc, char* argv[])
{
    removeTemporariesOnTerminatingSignals();
    // --help and --version are answered without a window system, so that they work over SSH and
    // in scripts: Qt's parser prints them and exits before any widget exists.
    const std::unique_ptr<QCoreApplication> app = asksHelpOrVersion(argc, argv)
                                                      ? std::make_unique<QCoreApplication>(argc, argv)
                                                      : std::make_unique<QApplication>(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Tessera"));
    QApplication::setApplicationName(QStringLiteral("Tessera"));
    QApplication::setApplicationVersion(QStringLiteral(TESSERA_VERSION));
    // The id of the desktop file and the icon, so that Wayland compositors and task bars match
    // the window to its launcher.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.tessera.Tessera"));

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
    const QCommandLineOption presetOption(
        QStringLiteral("preset"), QStringLiteral("Load the preset FILE into the filter stack and preview it."),
        QStringLiteral("FILE"));
    parser.addOption(presetOption);
    const QCommandLineOption filterOption(
        QStringLiteral("filter"), QStringLiteral("Add filter ID to the end of the filter stack and preview it."),
        QStringLiteral("ID"));
    parser.addOption(filterOption);
    const QCommandLineOption paramOption(
        QStringLiteral("param"), QStringLiteral("Set a parameter of --filter (repeatable)."),
        QStringLiteral("KEY=VALUE"));
    parser.addOption(paramOption);
    const QCommandLineOption compareOption(
        QStringLiteral("compare"), QStringLiteral("Show before/after with the divider once the preview is in."));
    parser.addOption(compareOption);
    const QCommandLineOption zoomOption(
        QStringLiteral("zoom"),
        QStringLiteral("Show the image at FACTOR (1 = actual size) instead of fitted to the window."),
        QStringLiteral("FACTOR"));
    parser.addOption(zoomOption);
    const QCommandLineOption screenshotsOption(
        QStringLiteral("screenshots"),
        QStringLiteral("Once the preview is in, save the user guide's pictures (preview, tiles, profiler, devices, "
                       "device comparison) as PNGs in DIR, then quit."),
        QStringLiteral("DIR"));
    parser.addOption(screenshotsOption);
    parser.process(*app);

    const QStringList positional = parser.positionalArguments();
    // The tour pictures a preview: without an image and a filter there is none to wait for.
    if (parser.isSet(screenshotsOption) &&
        (positional.isEmpty() || (!parser.isSet(filterOption) && !parser.isSet(presetOption)))) {
        std::fprintf(stderr, "tessera: --screenshots needs an IMAGE and --filter or --preset\n");
        return 2;
    }
    if (positional.size() > 1) {
        std::fprintf(stderr, "tessera: expected at most one image, got %lld\n",
                     static_cast<long long>(positional.size()));
        return 2;
    }

    double zoom = 0.0;
    if (parser.isSet(zoomOption)) {
        bool ok = false;
        zoom = parser.value(zoomOption).toDouble(&ok);
        if (!ok || zoom <= 0.0) {
            std::fprintf(stderr, "tessera: --zoom: expected a positive number, got '%s'\n",
                         qPrintable(parser.value(zoomOption)));
            return 2;
        }
    }

    QApplication::setWindowIcon(windowIcon());
    tessera::ui::MainWindow window;
    tessera::app::GuiController controller(window);
    const QString screenshot = parser.value(screenshotOption);
    // A headless check must never wait on a modal box; errors still reach the status bar.
    window.setModalDialogsEnabled(screenshot.isEmpty() && !parser.isSet(screenshotsOption));
    tessera::app::ScreenshotTour tour(window, controller, parser.value(screenshotsOption));
    if (parser.isSet(screenshotsOption)) {
        tour.start();
    }
    controller.refreshDeviceInfo();
    window.show();
    if (!positional.isEmpty()) {
        controller.openImage(positional.first());
        // Before any preview is asked for, so that a large image's first preview is of this view.
        if (zoom > 0.0) {
            window.imageView()->setZoom(zoom);
        }
    }
    bool previewing = false;
    if (parser.isSet(presetOption)) {
        controller.loadPreset(parser.value(presetOption));
        previewing = !positional.isEmpty();
    }
    if (parser.isSet(filterOption)) {
        // Read as the CLI reads them, so that both spell the options and their errors alike.
        std::vector<std::string> params;
        for (const QString& kv : parser.values(paramOption)) {
            params.push_back(kv.toStdString());
        }
        tessera::filters::FilterChoice choice;
        try {
            choice = tessera::app::filterChoiceOption(parser.value(filterOption).toStdString(), params,
                                                      tessera::filters::builtinRegistry());
        } catch (const tessera::app::UsageError& e) {
            std::fprintf(stderr, "tessera: %s\n", e.what());
            return 2;
        }
        tessera::filters::StackState stack = controller.document().stack();
        stack.entries.push_back(tessera::filters::StackEntry{choice});
        stack.current = static_cast<int>(stack.entries.size()) - 1;
        controller.document().resetStack(stack);
        previewing = true;
    }
    // Automation never waits on a start-up that failed (an unreadable image or preset).
    if (parser.isSet(screenshotsOption) && !window.lastError().isEmpty()) {
        std::fprintf(stderr, "tessera: %s\n", qPrintable(window.lastError()));
        return 1;
    }
    if (previewing && parser.isSet(compareOption)) {
        QObject::connect(&controller, &tessera::app::GuiController::previewShown, &window,
                         [&window] { window.imageView()->setSplitEnabled(true); });
    }

    if (!screenshot.isEmpty()) {
        // A start-up that failed (an unreadable image or preset) will never preview: the shot,
        // with the error in the status bar, is taken at once and the exit status is 1.
        previewing = previewing && window.lastError().isEmpty();
        auto takeShot = [&window, screenshot] {
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
        };
        if (previewing) {
            // Wait for the preview (or give up after a while), then let it paint.
            QObject::connect(&controller, &tessera::app::GuiController::previewShown, &window,
                             [&window, takeShot] { QTimer::singleShot(kScreenshotDelayMs, &window, takeShot); });
            QTimer::singleShot(kPreviewTimeoutMs, &window, takeShot);
        } else {
            QTimer::singleShot(kScreenshotDelayMs, &window, takeShot);
        }
    }
    return QApplication::exec();
}
