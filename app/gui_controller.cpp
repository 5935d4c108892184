#include "app/gui_controller.h"

#include "app/display_mapping.h"
#include "app/edit_commands.h"
#include "app/engine.h"
#include "app/image_io.h"
#include "app/version_info.h"
#include "gpu/device_info.h"
#include "filters/registry.h"
#include "ui/filter_panel.h"
#include "ui/image_view.h"
#include "ui/main_window.h"

#include <QFileInfo>
#include <QImage>
#include <QStringList>

#include <cstdint>

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
    : QObject(parent), window_(window), engine_(new Engine(true, this))
{
    connect(&window_, &ui::MainWindow::openRequested, this, &GuiController::openImage);
    connect(engine_, &Engine::previewReady, this, &GuiController::showPreview);
    if (ui::FilterPanel* panel = window_.filterPanel()) {
        panel->setFilters(filters::builtinRegistry().all());
        lastChoice_ = panel->currentChoice();
        connect(panel, &ui::FilterPanel::choiceChanged, this, &GuiController::panelChanged);
    }
    window_.setUndoStack(&undo_);
    connect(window_.imageView(), &ui::ImageView::pixelHovered, this,
            [this](const QPoint& pos) { window_.setPixelReadout(describePixel(pos)); });
    connect(window_.imageView(), &ui::ImageView::pixelLeft, this, [this] { window_.setPixelReadout(QString()); });
    connect(&window_, &ui::MainWindow::saveRequested, this, &GuiController::saveImage);
    connect(&window_, &ui::MainWindow::applyRequested, this, &GuiController::applyPreview);
}

void GuiController::panelChanged()
{
    const ui::FilterPanel* panel = window_.filterPanel();
    const ui::FilterChoice before = lastChoice_;
    previewPanelChoice();
    undo_.push(new ChoiceCommand(before, panel->currentChoice(),
                                 [this](const ui::FilterChoice& choice) { restoreChoice(choice); }));
}

void GuiController::restoreChoice(const ui::FilterChoice& choice)
{
    window_.filterPanel()->setChoice(choice);
    previewPanelChoice();
}

QString GuiController::describePixel(const QPoint& pos) const
{
    // Left of the compare divider the original is on screen.
    const bool original = preview_.empty() || (window_.imageView()->isSplitEnabled() &&
                                                window_.imageView()->showsOriginalAt(pos));
    const cv::Mat& shown = original ? source_ : preview_;
    if (shown.empty() || pos.x() < 0 || pos.y() < 0 || pos.x() >= shown.cols || pos.y() >= shown.rows) {
        return {};
    }
    const int channels = shown.channels();
    // OpenCV stores BGR(A); users read RGB(A).
    static constexpr int kRgbOrder[4] = {2, 1, 0, 3};
    QStringList values;
    for (int i = 0; i < channels; ++i) {
        const int c = channels >= 3 ? kRgbOrder[i] : i;
        switch (shown.depth()) {
        case CV_8U: values << QString::number(shown.ptr<std::uint8_t>(pos.y())[pos.x() * channels + c]); break;
        case CV_16U: values << QString::number(shown.ptr<std::uint16_t>(pos.y())[pos.x() * channels + c]); break;
        default: values << QString::number(shown.ptr<float>(pos.y())[pos.x() * channels + c], 'g', 5); break;
        }
    }
    return tr("x %1, y %2: %3").arg(pos.x()).arg(pos.y()).arg(values.join(QLatin1Char(' ')));
}

void GuiController::applyPreview()
{
    if (source_.empty() || preview_.empty()) {
        window_.showNotice(tr("Nothing to apply yet: change a filter setting to see a preview first"));
        return;
    }
    const ui::FilterPanel* panel = window_.filterPanel();
    const QString title = panel != nullptr ? QString::fromStdString(panel->currentChoice().id) : tr("filter");
    undo_.push(new ApplyCommand(source_, preview_, title, [this](const cv::Mat& image) { installImage(image); }));
}

void GuiController::installImage(const cv::Mat& image)
{
    source_ = image;
    preview_ = cv::Mat();
    engine_->setImage(source_);
    firstPreviewOfImage_ = engine_->latestRequest() + 1;
    originalDisplay_ = toDisplayImage(source_);
    window_.imageView()->replaceImage(originalDisplay_);
    window_.imageView()->setOriginal(originalDisplay_);
    window_.setDocumentModified(static_cast<const void*>(source_.data) != savedData_);
}

void GuiController::saveImage(const QString& path)
{
    if (source_.empty()) {
        return;
    }
    try {
        writeImage(path.toStdString(), source_);
        savedData_ = source_.data;
        if (QFileInfo(path).absoluteFilePath() != QFileInfo(window_.currentPath()).absoluteFilePath()) {
            window_.setDocumentPath(QFileInfo(path).absoluteFilePath());
        }
        window_.setDocumentModified(false);
        window_.showNotice(tr("Saved %1").arg(path));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot save image"), QString::fromUtf8(e.what()));
    }
}

void GuiController::previewPanelChoice()
{
    const ui::FilterPanel* panel = window_.filterPanel();
    if (panel == nullptr) {
        return;
    }
    const ui::FilterChoice choice = panel->currentChoice();
    lastChoice_ = choice;
    try {
        filters::FilterSpec spec = filters::builtinRegistry().get(choice.id).build(choice.values);
        spec.border = choice.border;
        spec.borderValue = choice.borderValue;
        spec.depth = choice.depth;
        requestPreview(filters::FilterChain{{spec}});
    } catch (const std::exception& e) {
        // A parameter combination the factory refuses (e.g. Sobel with dx = dy = 0): say so, keep
        // the last preview.
        window_.showNotice(QString::fromUtf8(e.what()));
    }
}

GuiController::~GuiController() = default;

void GuiController::requestPreview(const filters::FilterChain& chain)
{
    if (source_.empty()) {
        return;
    }
    engine_->requestPreview(chain);
}

void GuiController::showPreview(const PreviewResult& result)
{
    // Older than what is shown, or computed for an image that has since been replaced.
    if (result.id <= shownPreview_ || result.id < firstPreviewOfImage_) {
        return;
    }
    if (!result.error.isEmpty()) {
        window_.showNotice(tr("Preview failed: %1").arg(result.error));
        return;
    }
    shownPreview_ = result.id;
    preview_ = result.data;
    QString status = tr("Preview: %1").arg(result.device);
    if (!result.methods.isEmpty()) {
        status += QStringLiteral(", ") + result.methods;
    }
    status += QStringLiteral(", %1 ms").arg(result.milliseconds, 0, 'f', result.milliseconds < 10 ? 2 : 0);
    // "No GPU" is already in the status bar's compute label; a GPU that failed is news.
    if (result.note.startsWith(QStringLiteral("GPU failed"))) {
        status += QStringLiteral(" (%1)").arg(result.note);
    }
    window_.showPreview(result.image, status);
    emit previewShown(result.id);
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
        savedData_ = source_.data;
        undo_.clear();
        preview_ = cv::Mat();
        engine_->setImage(source_);
        // Previews still in flight belong to the previous image.
        firstPreviewOfImage_ = engine_->latestRequest() + 1;
        window_.showImage(display, absolute, description);
        originalDisplay_ = display;
        window_.imageView()->setOriginal(originalDisplay_);
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
