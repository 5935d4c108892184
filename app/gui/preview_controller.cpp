// SPDX-License-Identifier: Apache-2.0
#include "app/gui/preview_controller.h"

#include "app/engine/display_mapping.h"
#include "app/document/document.h"
#include "app/engine/engine.h"
#include "app/document/qt_text.h"
#include "app/io/image_io.h"
#include "app/gui/pixel_readout.h"
#include "app/gui/preview_status.h"
#include "app/document/stack_chain.h"
#include "app/gui/view_regions.h"
#include "ui/display_menu.h"
#include "ui/image_view.h"
#include "ui/main_window.h"
#include "ui/window_menus.h"
#include "ui/run_docks.h"

#include <QColorSpace>
#include <QGuiApplication>
#include <QImage>
#include <QProgressDialog>

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <utility>

namespace tessera::app::gui {

using document::Document;

namespace {

DisplayMapping toMapping(const ui::DisplayOptions& options)
{
    return DisplayMapping{options.stretch, options.absolute ? SignedMode::Absolute : SignedMode::Offset};
}

}  // namespace

PreviewController::PreviewController(ui::MainWindow& window, document::Document& document, QObject* parent)
    : QObject(parent), window_(window), document_(document), engine_(new Engine(true, this)),
      regions_(new ViewRegions(*window.imageView(), this))
{
    connect(engine_, &Engine::previewReady, this, &PreviewController::showPreview);
    // A preview held back by a measurement or a comparison on its GPU says so until it runs.
    connect(engine_, &Engine::previewWaiting, this, [this](const QString& why) { window_.showMessage(why); });
    connect(&document_, &Document::stackChanged, this, &PreviewController::previewStack);
    connect(&document_, &Document::imageChanged, this, &PreviewController::showDocumentImage);
    connect(window_.imageView(), &ui::ImageView::pixelHovered, this,
            [this](const QPoint& pos) { window_.setPixelReadout(describePixel(pos)); });
    connect(window_.imageView(), &ui::ImageView::pixelLeft, this, [this] { window_.setPixelReadout(QString()); });
    connect(window_.menus(), &ui::WindowMenus::applyRequested, this, &PreviewController::applyPreview);
    cancelWhole_ = new QShortcut(QKeySequence(Qt::Key_Escape), &window_);
    cancelWhole_->setEnabled(false);
    connect(cancelWhole_, &QShortcut::activated, this, &PreviewController::cancelWholeResult);
    mapping_ = toMapping(window_.menus()->displayMenu()->options());
    engine_->setDisplayMapping(mapping_);
    connect(window_.menus()->displayMenu(), &ui::DisplayMenu::optionsChanged, this,
            [this](const ui::DisplayOptions& options) { setDisplayMapping(toMapping(options)); });
    connect(regions_, &ViewRegions::viewSettled, this, &PreviewController::followView);
}

PreviewController::~PreviewController()
{
    // A caller still waiting hears nothing: the window it would report to is going too.
    wholeDone_ = {};
    if (std::exchange(wholeFailed_, {})) {
        QGuiApplication::restoreOverrideCursor();
    }
    // The Engine goes first: it fulfils every future it handed out, so the whole job, which
    // waits on one, returns.
    delete engine_;
    engine_ = nullptr;
}

QImage PreviewController::render(const cv::Mat& data, QString* shown) const
{
    std::string text;
    QImage image = toDisplayImage(data, mapping_, &text);
    *shown = qs(text);
    return forScreen(std::move(image), shown);
}

QImage PreviewController::forScreen(QImage image, QString* shown) const
{
    return forScreen(std::move(image), shown, profile_);
}

QImage PreviewController::forScreen(QImage image, QString* shown, const ScreenProfile& profile)
{
    if (profile.name.isEmpty()) {
        return image;
    }
    const QString note = profile.convert ? tr("colour profile %1, shown as sRGB").arg(profile.name)
                                         : tr("colour profile %1").arg(profile.name);
    *shown = shown->isEmpty() ? note : QStringLiteral("%1; %2").arg(*shown, note);
    // Grey images have no colours to convert.
    if (!profile.convert || image.isNull() || image.format() == QImage::Format_Grayscale8) {
        return image;
    }
    if (image.format() == QImage::Format_RGB888) {
        image = std::move(image).convertToFormat(QImage::Format_RGB32);
    }
    image.applyColorTransform(profile.toScreen);
    return image;
}

PreviewController::ScreenProfile PreviewController::screenProfileFor(const std::string& icc)
{
    ScreenProfile profile;
    const QColorSpace space = icc.empty() ? QColorSpace() : QColorSpace::fromIccProfile(QByteArray::fromStdString(icc));
    if (!space.isValid()) {
        return profile;  // none, or one Qt cannot use: the data is shown as sRGB, as before
    }
    profile.name = space.description().isEmpty() ? tr("from the file") : space.description();
    const QColorSpace srgb(QColorSpace::SRgb);
    if (space != srgb) {
        profile.toScreen = space.transformationToColorSpace(srgb);
        profile.convert = true;
    }
    return profile;
}

void PreviewController::setSourceProfile(const std::string& icc)
{
    profile_ = screenProfileFor(icc);
}

PreviewController::OpenedDisplay PreviewController::renderOpened(const cv::Mat& image, const DisplayMapping& mapping,
                                                                 const std::string& icc)
{
    OpenedDisplay out;
    std::string text;
    QImage rendered = toDisplayImage(image, mapping, &text);
    out.shown = qs(text);
    out.image = forScreen(std::move(rendered), &out.shown, screenProfileFor(icc));
    return out;
}

void PreviewController::showOriginalRendering()
{
    originalDisplay_ = render(document_.image(), &originalShown_);
    window_.imageView()->replaceImage(originalDisplay_);
    filteredBase_ = false;
    window_.imageView()->setOriginal(originalDisplay_);
    window_.setDisplayStatus(originalShown_);
}

void PreviewController::setDisplayMapping(const DisplayMapping& mapping)
{
    mapping_ = mapping;
    engine_->setDisplayMapping(mapping_);
    if (document_.image().empty()) {
        return;
    }
    showOriginalRendering();
    if (!preview_.empty()) {
        QString shown;
        const QImage image = render(preview_, &shown);
        if (previewRegion_ == wholeImage()) {
            window_.imageView()->replaceImage(image, QSize(previewRegion_.width, previewRegion_.height));
            filteredBase_ = true;
        } else {
            window_.imageView()->setPatch(image, QPoint(previewRegion_.x, previewRegion_.y));
        }
        window_.setDisplayStatus(shown);
    }
}

void PreviewController::setRegionPreviewThreshold(qint64 pixels)
{
    regions_->setThreshold(pixels);
}

filters::FilterChain PreviewController::stackChain() const
{
    return buildChain(document_.stack(), document_.registry());
}

void PreviewController::previewStack()
{
    if (document_.image().empty()) {
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

values::Rect PreviewController::wholeImage() const
{
    return values::imageRect(document_.image().cols, document_.image().rows);
}

void PreviewController::requestPreview(const filters::FilterChain& chain)
{
    if (document_.image().empty()) {
        return;
    }
    wantedChain_ = chain;
    const values::Rect region = regions_->wanted(wholeImage());
    requestRegion(chain, region, wantedReduce(region));
}

int PreviewController::wantedReduce(const values::Rect& region) const
{
    const double zoom = window_.imageView()->zoomFactor();
    if (region != wholeImage() || static_cast<qint64>(region.width) * region.height <= regions_->threshold() ||
        zoom > 0.5 || zoom <= 0.0) {
        return 1;
    }
    return std::max(1, static_cast<int>(std::floor(1.0 / zoom + 1e-9)));
}

quint64 PreviewController::requestRegion(const filters::FilterChain& chain, const values::Rect& region, int reduce)
{
    const values::Rect covered = region.empty() ? wholeImage() : region.intersected(wholeImage());
    const quint64 id = engine_->requestPreview(chain, covered, reduce);
    requested_[id] = Request{chain, covered, reduce};
    window_.setPreviewBusy(true);
    return id;
}

void PreviewController::followView()
{
    if (waitingForWhole_ || document_.image().empty() || wantedChain_.steps.empty()) {
        return;
    }
    const values::Rect wanted = regions_->wanted(wholeImage());
    const int reduce = wantedReduce(wanted);
    // A reduced preview serves a view at its zoom or further out; closer in needs a finer one.
    const auto covers = [this, reduce](const filters::FilterChain& chain, const values::Rect& region, int r) {
        return chain == wantedChain_ && regions_->coversView(region) && r <= reduce;
    };
    // Covered by what is shown, or by what is on its way.
    const auto& last = requested_.empty() ? Request{} : requested_.rbegin()->second;
    if ((!preview_.empty() && covers(previewChain_, previewRegion_, previewReduce_)) ||
        (!requested_.empty() && covers(last.chain, last.region, last.reduce))) {
        return;
    }
    requestRegion(wantedChain_, wanted, reduce);
}

void PreviewController::showUnfiltered()
{
    forgetPreviews();
    window_.showPreview(originalDisplay_, tr("Preview: no filter enabled"));
    filteredBase_ = false;
    window_.setDisplayStatus(originalShown_);
}

void PreviewController::showPreview(const PreviewResult& result)
{
    // Older than what is shown, or computed for an image or stack that has since been replaced.
    if (result.id <= shownPreview_ || result.id < acceptFrom_) {
        return;
    }
    const auto request = requested_.find(result.id);
    const filters::FilterChain chain = request != requested_.end() ? request->second.chain : filters::FilterChain{};
    requested_.erase(requested_.begin(), request == requested_.end() ? request : std::next(request));
    window_.setPreviewBusy(!requested_.empty());
    if (!result.error.isEmpty()) {
        window_.showNotice(tr("Preview failed: %1").arg(result.error));
        return;
    }
    shownPreview_ = result.id;
    preview_ = result.data;
    previewChain_ = chain;
    previewRegion_ = result.region;
    previewReduce_ = result.reduce;
    // Made before the mapping last changed: render again with the current one.
    QString shown = result.shownRange;
    const QImage image = result.mapping == mapping_ ? forScreen(result.image, &shown) : render(preview_, &shown);
    if (previewRegion_ == wholeImage()) {
        window_.showPreview(image, previewStatusText(result, wholeImage()),
                            QSize(previewRegion_.width, previewRegion_.height));
        filteredBase_ = true;
    } else {
        // A patch lies over the original, never over another stack's whole preview.
        if (filteredBase_) {
            window_.imageView()->replaceImage(originalDisplay_);
            filteredBase_ = false;
        }
        window_.showPreviewPatch(image, QPoint(previewRegion_.x, previewRegion_.y),
                                 previewStatusText(result, wholeImage()));
        // The view may have moved on while this was computed.
        regions_->recheckSoon();
    }
    window_.setDisplayStatus(shown);
    window_.runDocks()->setTimingRecords(
        result.timings,
        tr("Preview %1 x %2 on %3%4")
            .arg(result.region.width)
            .arg(result.region.height)
            .arg(result.device, result.methods.isEmpty() ? QString() : QStringLiteral(" · ") + result.methods));
    if (!requested_.empty()) {
        window_.setPreviewBusy(true);  // a newer request is on its way: this time is not its
    }
    emit previewShown(result.id);
}

void PreviewController::withCurrentResult(std::function<void(const cv::Mat&)> done,
                                          std::function<void(const QString&)> failed)
{
    filters::FilterChain chain;
    try {
        chain = stackChain();
    } catch (const std::exception& e) {
        failed(QString::fromUtf8(e.what()));
        return;
    }
    if (chain.steps.empty()) {
        done(document_.image());
        return;
    }
    if (!preview_.empty() && previewChain_ == chain && previewRegion_ == wholeImage() && previewReduce_ == 1) {
        done(preview_);
        return;
    }
    if (wholeJob_.isRunning()) {
        failed(tr("the whole image is still being filtered for an earlier request"));
        return;
    }
    wholeDone_ = std::move(done);
    wholeFailed_ = std::move(failed);
    computeWhole(chain);
}

void PreviewController::computeWhole(const filters::FilterChain& chain)
{
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    window_.showMessage(tr("Filtering the whole image\u2026 (Esc stops waiting)"));
    cancelWhole_->setEnabled(true);
    // A large image takes a while: a busy dialog with Cancel appears if it is not done soon.
    auto* progress = new QProgressDialog(
        tr("Filtering the whole image (%1 \u00d7 %2)\u2026").arg(document_.image().cols).arg(document_.image().rows),
        tr("Cancel"), 0, 0, &window_);
    progress->setObjectName(QStringLiteral("wholeProgress"));
    progress->setWindowTitle(tr("Filtering"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(500);
    connect(progress, &QProgressDialog::canceled, this, &PreviewController::cancelWholeResult);
    wholeProgress_ = progress;
    wantedChain_ = chain;
    const quint64 id = requestRegion(chain, wholeImage(), 1);
    // The view's moves must not supersede this request while it runs.
    waitingForWhole_ = true;
    // The job's thread waits for the Engine; the GUI thread goes on with its events and hears
    // the result through the job's delivery.
    wholeJob_.start([future = engine_->resultOf(id)]() mutable { return future.result(); },
                    [this, id, chain](PreviewResult whole) { wholeArrived(whole, id, chain); });
}

void PreviewController::wholeArrived(const PreviewResult& whole, quint64 id, const filters::FilterChain& chain)
{
    auto done = std::exchange(wholeDone_, {});
    auto failed = std::exchange(wholeFailed_, {});
    if (failed) {
        endWholeWait();
    }
    showPreview(whole);  // at once; the queued delivery that follows is then ignored as shown
    if (!failed) {
        return;  // the caller gave up; the result is the preview now
    }
    // A newer request (the stack changed) supersedes this one in the Engine: its result, or
    // none, comes instead.
    if (id < acceptFrom_) {
        failed(tr("another image was opened before the whole image was filtered"));
    } else if (whole.id != id || !(wantedChain_ == chain)) {
        failed(tr("the filter stack changed before the whole image was filtered"));
    } else if (!whole.error.isEmpty() || whole.data.empty()) {
        // The Engine's pipeline already fell back as its policy says: what is left is an error.
        failed(whole.error.isEmpty() ? tr("the whole image was not computed") : whole.error);
    } else {
        done(whole.data);
    }
}

void PreviewController::endWholeWait()
{
    waitingForWhole_ = false;
    cancelWhole_->setEnabled(false);
    if (wholeProgress_) {
        wholeProgress_->disconnect(this);
        wholeProgress_->deleteLater();
    }
    QGuiApplication::restoreOverrideCursor();
    window_.showMessage(QString());
}

void PreviewController::cancelWholeResult()
{
    wholeDone_ = {};
    if (auto failed = std::exchange(wholeFailed_, {})) {
        endWholeWait();
        failed(tr("filtering the whole image was cancelled"));
    }
}

QString PreviewController::describePixel(const QPoint& pos) const
{
    if (document_.image().empty() || !wholeImage().containsPixel(pos.x(), pos.y())) {
        return {};
    }
    const QString where = tr("x %1, y %2: ").arg(pos.x()).arg(pos.y());
    // Left of the compare divider the original is on screen.
    if (preview_.empty() || (window_.imageView()->isSplitEnabled() && window_.imageView()->showsOriginalAt(pos))) {
        return where + pixelValues(document_.image(), pos);
    }
    if (previewReduce_ > 1) {
        // A fit-zoom preview holds block means: say which block the value is the mean of.
        const int f = previewReduce_;
        return where + pixelValues(preview_, QPoint(pos.x() / f, pos.y() / f)) +
               tr(" (mean of the %1 × %1 block shown here)").arg(f);
    }
    if (previewRegion_.containsPixel(pos.x(), pos.y())) {
        return where + pixelValues(preview_, pos - QPoint(previewRegion_.x, previewRegion_.y));
    }
    return where + pixelValues(document_.image(), pos) + tr(" (original: not previewed here)");
}

void PreviewController::applyPreview()
{
    try {
        const filters::FilterChain chain = stackChain();
        if (document_.image().empty() || chain.steps.empty()) {
            window_.showNotice(tr("Nothing to apply: the filter stack has no enabled filter"));
            return;
        }
        const QString text = chain.steps.size() == 1 ? tr("Apply %1").arg(document_.titleOf(chain.steps.front().id))
                                                     : tr("Apply %1 filters").arg(chain.steps.size());
        // After Apply the stack is empty: its filters are now in the pixels, and keeping them
        // would filter the image twice. Undo brings back the image and the stack together.
        withCurrentResult([this, text](const cv::Mat& result) { document_.apply(result, text); },
                          [this](const QString& why) { window_.showError(tr("Cannot apply the filters"), why); });
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot apply the filters"), QString::fromUtf8(e.what()));
    }
}

void PreviewController::forgetPreviews()
{
    // Previews shown or still in flight belong to the previous image or stack.
    acceptFrom_ = engine_->latestRequest() + 1;
    requested_.clear();
    window_.setPreviewBusy(false);
    preview_ = cv::Mat();
    previewChain_ = filters::FilterChain{};
    previewRegion_ = {};
    previewReduce_ = 1;
    wantedChain_ = filters::FilterChain{};
}

void PreviewController::showDocumentImage()
{
    engine_->setImage(document_.image());
    forgetPreviews();
    window_.imageView()->setPatch(QImage(), QPoint());
    showOriginalRendering();
    window_.setDocumentModified(document_.isModified());
    previewStack();
}

void PreviewController::showOpenedImage(const QString& path, std::optional<OpenedDisplay> prepared)
{
    QString shown;
    const QImage display = prepared ? prepared->image : render(document_.image(), &shown);
    if (prepared) {
        shown = prepared->shown;
    }
    engine_->setImage(document_.image());
    forgetPreviews();
    window_.showImage(display, path, qs(describeFormat(document_.image())));
    originalDisplay_ = display;
    originalShown_ = shown;
    window_.imageView()->setOriginal(originalDisplay_);
    window_.setDisplayStatus(originalShown_);
    // The stack the image opened with (its own, or for the first image one given before it).
    if (!document_.stack().entries.empty()) {
        previewStack();
    }
}

}  // namespace tessera::app::gui
