#include "app/gui_controller.h"
#include "app/gui_text.h"

#include "app/calibration_controller.h"
#include "app/device_preference.h"
#include "app/display_mapping.h"
#include "app/edit_commands.h"
#include "app/engine.h"
#include "app/image_io.h"
#include "app/pixel_readout.h"
#include "app/preview_status.h"
#include "app/profiler_wiring.h"
#include "app/stack_chain.h"
#include "app/view_regions.h"
#include "filters/cpu_executor.h"
#include "filters/registry.h"
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

DisplayMapping toMapping(const ui::DisplayOptions& options)
{
    return DisplayMapping{options.stretch, options.absolute ? SignedMode::Absolute : SignedMode::Offset};
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
    connect(&window_, &ui::MainWindow::batchRequested, this, &GuiController::openBatch);
    connect(&window_, &ui::MainWindow::compareRequested, this, &GuiController::openCompare);
    calibration_ = new CalibrationController(*window_.devicePanel(), engine_->scheduler(), {}, this);
    // A new measurement changes how the bands are shared out.
    connect(calibration_, &CalibrationController::measured, this, &GuiController::applyDevicePreference);
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
    connectProfilerExport(window_);
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
    window_.setTimingRecords(result.timings,
                             tr("Preview %1 x %2 on %3%4")
                                 .arg(result.region.width())
                                 .arg(result.region.height())
                                 .arg(result.device,
                                      result.methods.isEmpty() ? QString() : QStringLiteral(" · ") + result.methods));
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
    const PreviewResult whole = engine_->resultOf(id).result();
    showPreview(whole);  // at once; the queued delivery that follows is then ignored as shown
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

}  // namespace tessera::app
