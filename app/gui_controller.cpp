#include "app/gui_controller.h"

#include "app/device_preference.h"
#include "app/display_mapping.h"
#include "app/edit_commands.h"
#include "app/engine.h"
#include "app/image_io.h"
#include "app/pixel_readout.h"
#include "app/preview_status.h"
#include "app/preview_wait.h"
#include "app/stack_chain.h"
#include "app/version_info.h"
#include "app/view_regions.h"
#include "filters/cpu_executor.h"
#include "filters/preset_io.h"
#include "filters/registry.h"
#include "gpu/device_info.h"
#include "ui/display_menu.h"
#include "ui/filter_dock.h"
#include "ui/image_view.h"
#include "ui/main_window.h"

#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>

#include <exception>
#include <utility>

namespace tessera::app {

namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

DisplayMapping toMapping(const ui::DisplayOptions& options)
{
    return DisplayMapping{options.stretch, options.absolute ? SignedMode::Absolute : SignedMode::Offset};
}

/// e.what() with path in front unless the message already names it.
QString namingFile(const QString& path, const std::exception& e)
{
    const QString message = QString::fromUtf8(e.what());
    return message.contains(path) ? message : QStringLiteral("%1: %2").arg(path, message);
}

}  // namespace

GuiController::GuiController(ui::MainWindow& window, QObject* parent)
    : QObject(parent), window_(window), engine_(new Engine(true, this)),
      regions_(new ViewRegions(*window.imageView(), this))
{
    connect(&window_, &ui::MainWindow::openRequested, this, &GuiController::openImage);
    connect(engine_, &Engine::previewReady, this, &GuiController::showPreview);
    window_.filterDock()->setFilters(filters::builtinRegistry().all());
    connect(window_.filterStack(), &ui::FilterStack::edited, this, &GuiController::stackEdited);
    window_.setUndoStack(&undo_);
    connect(window_.imageView(), &ui::ImageView::pixelHovered, this,
            [this](const QPoint& pos) { window_.setPixelReadout(describePixel(pos)); });
    connect(window_.imageView(), &ui::ImageView::pixelLeft, this, [this] { window_.setPixelReadout(QString()); });
    connect(&window_, &ui::MainWindow::saveRequested, this, &GuiController::saveImage);
    connect(&window_, &ui::MainWindow::exportRequested, this, &GuiController::exportImage);
    connect(&window_, &ui::MainWindow::applyRequested, this, &GuiController::applyPreview);
    connect(&window_, &ui::MainWindow::loadPresetRequested, this, &GuiController::loadPreset);
    connect(&window_, &ui::MainWindow::savePresetRequested, this, &GuiController::savePreset);
    mapping_ = toMapping(window_.displayMenu()->options());
    engine_->setDisplayMapping(mapping_);
    connect(window_.displayMenu(), &ui::DisplayMenu::optionsChanged, this,
            [this](const ui::DisplayOptions& options) { setDisplayMapping(toMapping(options)); });
    applyDevicePreference();
    connect(&window_, &ui::MainWindow::preferredDeviceChanged, this, &GuiController::applyDevicePreference);
    connect(&window_, &ui::MainWindow::enabledDevicesChanged, this, &GuiController::applyDevicePreference);
    connect(&window_, &ui::MainWindow::deviceRefreshRequested, this, &GuiController::refreshDeviceInfo);
    connect(regions_, &ViewRegions::viewSettled, this, &GuiController::followView);
}

QImage GuiController::render(const cv::Mat& data, QString* shown) const
{
    std::string text;
    QImage image = toDisplayImage(data, mapping_, &text);
    *shown = qs(text);
    return image;
}

void GuiController::showOriginalRendering()
{
    originalDisplay_ = render(source_, &originalShown_);
    window_.imageView()->replaceImage(originalDisplay_);
    filteredBase_ = false;
    window_.imageView()->setOriginal(originalDisplay_);
    window_.setDisplayStatus(originalShown_);
}

void GuiController::setDisplayMapping(const DisplayMapping& mapping)
{
    mapping_ = mapping;
    engine_->setDisplayMapping(mapping_);
    if (source_.empty()) {
        return;
    }
    showOriginalRendering();
    if (!preview_.empty()) {
        QString shown;
        const QImage image = render(preview_, &shown);
        if (previewRegion_ == wholeImage()) {
            window_.imageView()->replaceImage(image);
            filteredBase_ = true;
        } else {
            window_.imageView()->setPatch(image, previewRegion_.topLeft());
        }
        window_.setDisplayStatus(shown);
    }
}

GuiController::~GuiController() = default;

void GuiController::setRegionPreviewThreshold(qint64 pixels)
{
    regions_->setThreshold(pixels);
}

void GuiController::stackEdited(const ui::StackChange& change)
{
    undo_.push(new StackCommand(change, [this](const ui::StackState& state) { restoreStack(state); }));
    previewStack();
}

void GuiController::restoreStack(const ui::StackState& state)
{
    window_.filterStack()->setState(state);
    previewStack();
}

filters::FilterChain GuiController::stackChain() const
{
    return buildChain(window_.filterStack()->state(), filters::builtinRegistry());
}

void GuiController::previewStack()
{
    if (source_.empty()) {
        return;
    }
    filters::FilterChain chain;
    try {
        chain = stackChain();
    } catch (const std::exception& e) {
        // A parameter combination a factory refuses (e.g. Sobel with dx = dy = 0): say so, keep
        // the last preview.
        window_.showNotice(QString::fromUtf8(e.what()));
        return;
    }
    if (chain.steps.empty()) {
        showUnfiltered();
    } else {
        requestPreview(chain);
    }
}

QRect GuiController::wholeImage() const
{
    return QRect(0, 0, source_.cols, source_.rows);
}

void GuiController::requestPreview(const filters::FilterChain& chain)
{
    if (source_.empty()) {
        return;
    }
    wantedChain_ = chain;
    requestRegion(chain, regions_->wanted(wholeImage().size()));
}

quint64 GuiController::requestRegion(const filters::FilterChain& chain, const QRect& region)
{
    const QRect covered = region.isEmpty() ? wholeImage() : region.intersected(wholeImage());
    const quint64 id = engine_->requestPreview(chain, covered);
    requested_[id] = Request{chain, covered};
    return id;
}

void GuiController::followView()
{
    if (waitingForWhole_ || source_.empty() || wantedChain_.steps.empty()) {
        return;
    }
    const auto covers = [this](const filters::FilterChain& chain, const QRect& region) {
        return chain == wantedChain_ && regions_->coversView(region);
    };
    // Covered by what is shown, or by what is on its way.
    if ((!preview_.empty() && covers(previewChain_, previewRegion_)) ||
        (!requested_.empty() && covers(requested_.rbegin()->second.chain, requested_.rbegin()->second.region))) {
        return;
    }
    requestRegion(wantedChain_, regions_->wanted(wholeImage().size()));
}

void GuiController::showUnfiltered()
{
    forgetPreviews();
    window_.showPreview(originalDisplay_, tr("Preview: no filter enabled"));
    filteredBase_ = false;
    window_.setDisplayStatus(originalShown_);
}

void GuiController::showPreview(const PreviewResult& result)
{
    // Older than what is shown, or computed for an image or stack that has since been replaced.
    if (result.id <= shownPreview_ || result.id < acceptFrom_) {
        return;
    }
    const auto request = requested_.find(result.id);
    const filters::FilterChain chain = request != requested_.end() ? request->second.chain : filters::FilterChain{};
    requested_.erase(requested_.begin(), request == requested_.end() ? request : std::next(request));
    if (!result.error.isEmpty()) {
        window_.showNotice(tr("Preview failed: %1").arg(result.error));
        return;
    }
    shownPreview_ = result.id;
    preview_ = result.data;
    previewChain_ = chain;
    previewRegion_ = result.region;
    // Made before the mapping last changed: render again with the current one.
    QString shown = result.shownRange;
    const QImage image = result.mapping == mapping_ ? result.image : render(preview_, &shown);
    if (previewRegion_ == wholeImage()) {
        window_.showPreview(image, previewStatusText(result, wholeImage().size()));
        filteredBase_ = true;
    } else {
        // A patch lies over the original, never over another stack's whole preview.
        if (filteredBase_) {
            window_.imageView()->replaceImage(originalDisplay_);
            filteredBase_ = false;
        }
        window_.showPreviewPatch(image, previewRegion_.topLeft(), previewStatusText(result, wholeImage().size()));
        // The view may have moved on while this was computed.
        regions_->recheckSoon();
    }
    window_.setDisplayStatus(shown);
    emit previewShown(result.id);
}

cv::Mat GuiController::currentResult()
{
    const filters::FilterChain chain = stackChain();
    if (chain.steps.empty()) {
        return source_;
    }
    if (!preview_.empty() && previewChain_ == chain && previewRegion_ == wholeImage()) {
        return preview_;
    }
    return computeWhole(chain);
}

cv::Mat GuiController::computeWhole(const filters::FilterChain& chain)
{
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    window_.showMessage(tr("Filtering the whole image\u2026"));
    wantedChain_ = chain;
    const quint64 id = requestRegion(chain, wholeImage());
    // No new request may supersede this one while it runs: the view's moves wait, and the user's
    // input too. showPreview() also puts the whole result on screen.
    waitingForWhole_ = true;
    const PreviewResult whole = waitForPreview(*engine_, id);
    waitingForWhole_ = false;
    QGuiApplication::restoreOverrideCursor();
    window_.showMessage(QString());
    if (whole.id == id && whole.error.isEmpty() && !whole.data.empty()) {
        return whole.data;
    }
    // The Engine failed: the CPU path gives the same pixels, or the error worth reporting.
    return filters::applyCpu(source_, chain);
}

QString GuiController::describePixel(const QPoint& pos) const
{
    if (source_.empty() || !wholeImage().contains(pos)) {
        return {};
    }
    const QString where = tr("x %1, y %2: ").arg(pos.x()).arg(pos.y());
    // Left of the compare divider the original is on screen.
    if (preview_.empty() || (window_.imageView()->isSplitEnabled() && window_.imageView()->showsOriginalAt(pos))) {
        return where + pixelValues(source_, pos);
    }
    if (previewRegion_.contains(pos)) {
        return where + pixelValues(preview_, pos - previewRegion_.topLeft());
    }
    return where + pixelValues(source_, pos) + tr(" (original: not previewed here)");
}

void GuiController::applyPreview()
{
    const ui::StackState stack = window_.filterStack()->state();
    try {
        const filters::FilterChain chain = stackChain();
        if (source_.empty() || chain.steps.empty()) {
            window_.showNotice(tr("Nothing to apply: the filter stack has no enabled filter"));
            return;
        }
        const QString text = chain.steps.size() == 1
                                 ? tr("Apply %1").arg(window_.filterStack()->titleOf(chain.steps.front().id))
                                 : tr("Apply %1 filters").arg(chain.steps.size());
        // After Apply the stack is empty: its filters are now in the pixels, and keeping them
        // would filter the image twice. Undo brings back the image and the stack together.
        undo_.push(new ApplyCommand(Document{source_, stack}, Document{currentResult(), ui::StackState{}}, text,
                                    [this](const Document& document) { installDocument(document); }));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot apply the filters"), QString::fromUtf8(e.what()));
    }
}

void GuiController::forgetPreviews()
{
    // Previews shown or still in flight belong to the previous image or stack.
    acceptFrom_ = engine_->latestRequest() + 1;
    requested_.clear();
    preview_ = cv::Mat();
    previewChain_ = filters::FilterChain{};
    previewRegion_ = QRect();
    wantedChain_ = filters::FilterChain{};
}

void GuiController::installDocument(const Document& document)
{
    source_ = document.image;
    engine_->setImage(source_);
    forgetPreviews();
    window_.imageView()->setPatch(QImage(), QPoint());
    showOriginalRendering();
    window_.setDocumentModified(static_cast<const void*>(source_.data) != savedData_);
    window_.filterStack()->setState(document.stack);
    previewStack();
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
        window_.showMessage(tr("Saved %1").arg(path));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot save image"), QString::fromUtf8(e.what()));
    }
}

void GuiController::exportImage(const QString& path)
{
    if (source_.empty()) {
        return;
    }
    try {
        const cv::Mat result = currentResult();
        // writeImage() refuses a format that cannot hold the depth or the alpha channel and names
        // the formats that can; nothing is converted behind the user's back.
        writeImage(path.toStdString(), result);
        window_.showMessage(tr("Exported %1 (%2)").arg(path, qs(describeFormat(result))));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot export image"), tr("%1. Nothing was written.").arg(namingFile(path, e)));
    }
}

void GuiController::loadPreset(const QString& path)
{
    try {
        const filters::Preset preset = filters::loadPreset(path.toStdString(), filters::builtinRegistry());
        const QString name = preset.name.empty() ? QFileInfo(path).completeBaseName() : qs(preset.name);
        window_.filterStack()->replaceEntries(entriesFromPreset(preset), tr("Load preset %1").arg(name));
        window_.showMessage(tr("Loaded preset %1").arg(path));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot load preset"), namingFile(path, e));
    }
}

void GuiController::savePreset(const QString& path)
{
    try {
        const filters::Preset preset = presetFromStack(window_.filterStack()->state(),
                                                       QFileInfo(path).completeBaseName().toStdString(),
                                                       filters::builtinRegistry());
        filters::savePreset(preset, path.toStdString());
        window_.showMessage(tr("Saved preset %1 (%2 filters)").arg(path).arg(preset.steps.size()));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot save preset"), namingFile(path, e));
    }
}

void GuiController::openImage(const QString& path)
{
    const QString title = tr("Cannot open image");
    // Absolute, so the title, the recent list and later saves do not depend on the working folder.
    const QString absolute = path.isEmpty() ? path : QFileInfo(path).absoluteFilePath();
    try {
        cv::Mat image = readImage(absolute.toStdString());
        QString shown;
        const QImage display = render(image, &shown);
        const QString description = qs(describeFormat(image));
        source_ = std::move(image);
        savedData_ = source_.data;
        undo_.clear();
        engine_->setImage(source_);
        forgetPreviews();
        window_.showImage(display, absolute, description);
        originalDisplay_ = display;
        originalShown_ = shown;
        window_.imageView()->setOriginal(originalDisplay_);
        window_.setDisplayStatus(originalShown_);
        // The stack stays: it is previewed on the new image.
        if (!window_.filterStack()->state().entries.empty()) {
            previewStack();
        }
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
    std::vector<ui::DeviceOption> options = ui::PreferencesDialog::basicDeviceOptions();
    for (const gpu::DeviceInfo& device : snapshot.devices) {
        const DevicePreference gpu{DevicePreference::Kind::Gpu, device.id};
        options.push_back({qs(toString(gpu)), tr("GPU %1: %2").arg(device.id).arg(qs(device.name))});
    }
    window_.setDeviceOptions(options);
    window_.setDevices(snapshot);
    presentGpus_.clear();
    for (const gpu::DeviceInfo& device : snapshot.devices) {
        presentGpus_.push_back(device.id);
    }
    applyDevicePreference();
}

void GuiController::applyDevicePreference()
{
    // Preferences says where previews should run; the Devices dock's check boxes say which
    // devices they may use. The Engine gets the first device that satisfies both.
    AllowedDevices allowed{presentGpus_, {}, false};
    for (const QString& key : window_.enabledDevices()) {
        const DevicePreference device = parseDevicePreference(key.toStdString());
        if (device.kind == DevicePreference::Kind::Gpu) {
            allowed.gpus.push_back(device.gpu);
        }
        allowed.cpu = allowed.cpu || device.kind == DevicePreference::Kind::Cpu;
    }
    const DevicePreference preference =
        restrictPreference(parseDevicePreference(window_.preferredDevice().toStdString()), allowed);
    if (toString(preference) == appliedDevice_) {
        return;
    }
    const bool first = appliedDevice_.empty();
    appliedDevice_ = toString(preference);
    engine_->setDevicePreference(preference);
    if (!first) {
        previewStack();
    }
}

}  // namespace tessera::app
