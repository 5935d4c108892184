#include "app/gui_controller.h"

#include "app/display_mapping.h"
#include "app/image_io.h"
#include "app/version_info.h"
#include "gpu/device_info.h"
#include "ui/main_window.h"

#include <QFileInfo>
#include <QImage>

#include <exception>
#include <utility>

namespace tessera::app {

namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

}  // namespace

GuiController::GuiController(ui::MainWindow& window, QObject* parent)
    : QObject(parent), window_(window)
{
    connect(&window_, &ui::MainWindow::openRequested, this, &GuiController::openImage);
}

void GuiController::openImage(const QString& path)
{
    const QString title = tr("Cannot open image");
    // Absolute, so the title, the recent list and later saves do not depend on the working folder.
    const QString absolute = path.isEmpty() ? path : QFileInfo(path).absoluteFilePath();
    try {
        cv::Mat image = readImage(absolute.toStdString());
        const QImage display = toDisplayImage(image);
        const QString description = qs(describeFormat(image));
        source_ = std::move(image);
        window_.showImage(display, absolute, description);
    } catch (const ImageError& e) {
        // ImageError's text already starts with the path.
        window_.showError(title, qs(e.what()));
    } catch (const std::exception& e) {
        window_.showError(title, QStringLiteral("%1: %2").arg(absolute, qs(e.what())));
    }
}

void GuiController::refreshDeviceInfo()
{
    const gpu::DeviceSnapshot snapshot = gpu::enumerateDevices();
    const VersionInfo versions = collectVersions(snapshot);
    ui::AboutInfo about;
    about.tessera = qs(versions.tessera);
    about.qt = qs(versions.qt);
    about.opencv = qs(versions.opencv);
    about.cudaRuntime = qs(versions.cudaRuntime);
    about.cudaDriver = qs(versions.cudaDriver);
    about.devices = qs(describeDevices(snapshot));
    window_.setAboutInfo(about);
    window_.setComputeSummary(qs(computeSummary(snapshot)));
}

}  // namespace tessera::app
