// SPDX-License-Identifier: Apache-2.0
#include "app/gui/gui_controller.h"

#include "app/gui/device_controller.h"
#include "app/gui/dialog_controller.h"
#include "app/gui/document_controller.h"
#include "app/gui/preview_controller.h"
#include "app/gui/profiler_wiring.h"
#include "filters/registry.h"
#include "ui/main_window.h"

namespace tessera::app {

GuiController::GuiController(ui::MainWindow& window, QObject* parent)
    : QObject(parent), window_(window), document_(filters::builtinRegistry())
{
    previews_ = new gui::PreviewController(window_, document_, this);
    documents_ = new gui::DocumentController(window_, document_, *previews_, this);
    devices_ = new gui::DeviceController(window_, previews_->engine(), this);
    dialogs_ = new gui::DialogController(window_, document_, *previews_, devices_->calibration(), this);
    connect(previews_, &gui::PreviewController::previewShown, this, &GuiController::previewShown);
    connect(devices_, &gui::DeviceController::devicesChanged, previews_, &gui::PreviewController::previewStack);
    connectProfilerExport(window_);
}

GuiController::~GuiController() = default;

const DisplayMapping& GuiController::displayMapping() const
{
    return previews_->displayMapping();
}
CalibrationController& GuiController::calibration() const
{
    return devices_->calibration();
}
CompareController* GuiController::compareController() const
{
    return dialogs_->compareController();
}
quint64 GuiController::shownPreview() const
{
    return previews_->shownPreview();
}
const cv::Mat& GuiController::previewData() const
{
    return previews_->previewData();
}
void GuiController::setBackgroundOpenPixels(qint64 pixels)
{
    documents_->setBackgroundOpenPixels(pixels);
}

bool GuiController::isOpening() const
{
    return documents_->isOpening();
}

void GuiController::cancelOpening()
{
    documents_->cancelOpening();
}

int GuiController::previewReduce() const
{
    return previews_->previewReduce();
}

values::Rect GuiController::previewRegion() const
{
    return previews_->previewRegion();
}
void GuiController::setRegionPreviewThreshold(qint64 pixels)
{
    previews_->setRegionPreviewThreshold(pixels);
}
bool GuiController::isPreviewPending() const
{
    return previews_->isPreviewPending();
}
bool GuiController::isComputingWhole() const
{
    return previews_->isComputingWhole();
}
void GuiController::withCurrentResult(std::function<void(const cv::Mat&)> done,
                                      std::function<void(const QString&)> failed)
{
    previews_->withCurrentResult(std::move(done), std::move(failed));
}
void GuiController::previewStack()
{
    previews_->previewStack();
}
void GuiController::openImage(const QString& path)
{
    documents_->openImage(path);
}
void GuiController::refreshDeviceInfo()
{
    devices_->refreshDeviceInfo();
}
void GuiController::saveImage(const QString& path)
{
    documents_->saveImage(path);
}
void GuiController::exportImage(const QString& path)
{
    documents_->exportImage(path);
}
void GuiController::loadPreset(const QString& path)
{
    documents_->loadPreset(path);
}
void GuiController::savePreset(const QString& path)
{
    documents_->savePreset(path);
}
QString GuiController::describePixel(const QPoint& pos) const
{
    return previews_->describePixel(pos);
}
void GuiController::applyPreview()
{
    previews_->applyPreview();
}
void GuiController::requestPreview(const filters::FilterChain& chain)
{
    previews_->requestPreview(chain);
}
void GuiController::setDisplayMapping(const DisplayMapping& mapping)
{
    previews_->setDisplayMapping(mapping);
}
void GuiController::openBatch()
{
    dialogs_->openBatch();
}
void GuiController::openCompare()
{
    dialogs_->openCompare();
}

}  // namespace tessera::app
