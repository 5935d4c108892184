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
#include "values/log.h"

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
#include <variant>
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

namespace {

/// What the command line asks of this start.
struct StartOptions {
    QString image;       ///< empty: none
    QString screenshot;  ///< --screenshot PATH
    QString tourFolder;  ///< --screenshots DIR
    QString preset;
    QString filter;
    QStringList params;
    bool compare = false;
    double zoom = 0.0;  ///< 0: fitted
};

/// Parses the command line (answering --help and --version itself). Returns the options, or
/// the exit status of a usage error, already said on stderr.
std::variant<StartOptions, int> parseStart(const QCoreApplication& app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Tessera: 2D image convolution on CUDA GPUs."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("image"), QStringLiteral("Image file to open."),
                                 QStringLiteral("[IMAGE]"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Save a PNG of the window to PATH shortly after start, then quit."), QStringLiteral("PATH"));
    const QCommandLineOption presetOption(QStringLiteral("preset"),
                                          QStringLiteral("Load the preset FILE into the filter stack and preview it."),
                                          QStringLiteral("FILE"));
    const QCommandLineOption filterOption(
        QStringLiteral("filter"), QStringLiteral("Add filter ID to the end of the filter stack and preview it."),
        QStringLiteral("ID"));
    const QCommandLineOption paramOption(QStringLiteral("param"),
                                         QStringLiteral("Set a parameter of --filter (repeatable)."),
                                         QStringLiteral("KEY=VALUE"));
    const QCommandLineOption compareOption(
        QStringLiteral("compare"), QStringLiteral("Show before/after with the divider once the preview is in."));
    const QCommandLineOption zoomOption(
        QStringLiteral("zoom"),
        QStringLiteral("Show the image at FACTOR (1 = actual size) instead of fitted to the window."),
        QStringLiteral("FACTOR"));
    const QCommandLineOption screenshotsOption(
        QStringLiteral("screenshots"),
        QStringLiteral("Once the preview is in, save the user guide's pictures (preview, tiles, profiler, devices, "
                       "device comparison) as PNGs in DIR, then quit."),
        QStringLiteral("DIR"));
    const QCommandLineOption verboseOption(
        QStringLiteral("verbose"),
        QStringLiteral("Print every diagnostic on stderr (as TESSERA_LOG=all: devices, plans, fallbacks, files)."));
    parser.addOptions({screenshotOption, presetOption, filterOption, paramOption, compareOption, zoomOption,
                       screenshotsOption, verboseOption});
    // parse(), not process(): a usage error exits with 2, as tessera-cli's and tessera-bench's do
    // (process() would exit with 1). --help and --version are answered as process() does.
    if (!parser.parse(app.arguments())) {
        std::fprintf(stderr, "tessera: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        parser.showHelp(0);  // exits
    }
    if (parser.isSet(QStringLiteral("version"))) {
        parser.showVersion();  // exits with 0
    }
    if (parser.isSet(verboseOption)) {
        tessera::values::setExtraLogCategories(tessera::values::kAllLogCategories);
    }

    StartOptions o;
    const QStringList positional = parser.positionalArguments();
    o.image = positional.isEmpty() ? QString() : positional.first();
    o.screenshot = parser.value(screenshotOption);
    o.tourFolder = parser.value(screenshotsOption);
    o.preset = parser.value(presetOption);
    o.filter = parser.value(filterOption);
    o.params = parser.values(paramOption);
    o.compare = parser.isSet(compareOption);
    // The tour pictures a preview: without an image and a filter there is none to wait for.
    if (!o.tourFolder.isEmpty() && (o.image.isEmpty() || (o.filter.isEmpty() && o.preset.isEmpty()))) {
        std::fprintf(stderr, "tessera: --screenshots needs an IMAGE and --filter or --preset\n");
        return 2;
    }
    if (positional.size() > 1) {
        std::fprintf(stderr, "tessera: expected at most one image, got %lld\n",
                     static_cast<long long>(positional.size()));
        return 2;
    }
    if (parser.isSet(zoomOption)) {
        bool ok = false;
        o.zoom = parser.value(zoomOption).toDouble(&ok);
        if (!ok || o.zoom <= 0.0) {
            std::fprintf(stderr, "tessera: --zoom: expected a positive number, got '%s'\n",
                         qPrintable(parser.value(zoomOption)));
            return 2;
        }
    }
    return o;
}

/// Adds --filter with its --param values to the end of the stack, read as the CLI reads them
/// so that both spell the options and their errors alike. False after saying why on stderr.
bool addFilterOption(tessera::app::GuiController& controller, const StartOptions& o)
{
    std::vector<std::string> params;
    for (const QString& kv : o.params) {
        params.push_back(kv.toStdString());
    }
    tessera::filters::FilterChoice choice;
    try {
        choice = tessera::app::filterChoiceOption(o.filter.toStdString(), params, tessera::filters::builtinRegistry());
    } catch (const tessera::app::UsageError& e) {
        std::fprintf(stderr, "tessera: %s\n", e.what());
        return false;
    }
    tessera::filters::StackState stack = controller.document().stack();
    stack.entries.push_back(tessera::filters::StackEntry{choice});
    stack.current = static_cast<int>(stack.entries.size()) - 1;
    controller.document().resetStack(stack);
    return true;
}

/// Saves the window as a PNG once the preview is in (or at once when none is coming), then
/// quits: 0 when it was saved and nothing failed on the way.
void armScreenshot(tessera::ui::MainWindow& window, tessera::app::GuiController& controller, const QString& path,
                   bool previewing)
{
    // A start-up that failed (an unreadable image or preset) will never preview: the shot, with
    // the error in the status bar, is taken at once and the exit status is 1.
    previewing = previewing && window.lastError().isEmpty();
    auto takeShot = [&window, path] {
        const bool saved = window.grab().save(path, "PNG");
        if (!saved) {
            std::fprintf(stderr, "tessera: could not save a screenshot to %s\n", qPrintable(path));
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
    const std::variant<StartOptions, int> parsed = parseStart(*app);
    if (const int* status = std::get_if<int>(&parsed)) {
        return *status;
    }
    const StartOptions& o = std::get<StartOptions>(parsed);

    QApplication::setWindowIcon(windowIcon());
    tessera::ui::MainWindow window;
    tessera::app::GuiController controller(window);
    // A headless check must never wait on a modal box; errors still reach the status bar.
    window.setModalDialogsEnabled(o.screenshot.isEmpty() && o.tourFolder.isEmpty());
    tessera::app::ScreenshotTour tour(window, controller, o.tourFolder);
    if (!o.tourFolder.isEmpty()) {
        tour.start();
    }
    controller.refreshDeviceInfo();
    window.show();
    if (!o.image.isEmpty()) {
        controller.openImage(o.image);
        // Before any preview is asked for, so that a large image's first preview is of this view.
        if (o.zoom > 0.0) {
            window.imageView()->setZoom(o.zoom);
        }
    }
    bool previewing = false;
    if (!o.preset.isEmpty()) {
        controller.loadPreset(o.preset);
        previewing = !o.image.isEmpty();
    }
    if (!o.filter.isEmpty()) {
        if (!addFilterOption(controller, o)) {
            return 2;
        }
        previewing = true;
    }
    // Automation never waits on a start-up that failed (an unreadable image or preset).
    if (!o.tourFolder.isEmpty() && !window.lastError().isEmpty()) {
        std::fprintf(stderr, "tessera: %s\n", qPrintable(window.lastError()));
        return 1;
    }
    if (previewing && o.compare) {
        QObject::connect(&controller, &tessera::app::GuiController::previewShown, &window,
                         [&window] { window.imageView()->setSplitEnabled(true); });
    }
    if (!o.screenshot.isEmpty()) {
        armScreenshot(window, controller, o.screenshot, previewing);
    }
    return QApplication::exec();
}
