// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/engine/display_mapping.h"
#include "app/engine/engine.h"
#include "app/gui/background_job.h"
#include "filters/filter_spec.h"

#include <opencv2/core/mat.hpp>

#include <QImage>
#include <QColorTransform>
#include <QObject>
#include <QPoint>
#include <QPointer>
#include <QProgressDialog>
#include <QRect>
#include <QShortcut>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <optional>

class QEventLoop;

namespace tessera::ui {
class MainWindow;
}  // namespace tessera::ui

namespace tessera::app {
class ViewRegions;
}  // namespace tessera::app

namespace tessera::app::document {
class Document;
}  // namespace tessera::app::document

namespace tessera::app::gui {

/// Shows the document in the image view and asks the Engine (its own thread, GPU when present)
/// for previews of the stack whenever the document changes. A large image is previewed only
/// where the view shows it (plus a margin), again whenever the view moves off that part. Also
/// the display mapping, the pixel readout and Apply. The window and the document must outlive
/// it. GUI thread only.
class PreviewController : public QObject {
    Q_OBJECT

public:
    /// Makes the Engine and follows document and the window's view and display menu.
    PreviewController(ui::MainWindow& window, document::Document& document, QObject* parent = nullptr);
    ~PreviewController() override;

    /// The Engine that computes previews (for the device settings).
    Engine& engine() const { return *engine_; }
    /// The display mapping in use.
    const DisplayMapping& displayMapping() const { return mapping_; }
    /// Id of the last preview shown in the window (0 before the first).
    quint64 shownPreview() const { return shownPreview_; }
    /// The last preview's pixels in their own depth, covering previewRegion(); empty while no
    /// filter is enabled.
    const cv::Mat& previewData() const { return preview_; }
    /// The part of the image the last preview covers (image pixels): all of a small image, the
    /// view and its margin for a large one; empty while no preview is shown.
    values::Rect previewRegion() const { return previewRegion_; }
    /// 1, or the block width of the means previewData() holds (a fit-zoom preview).
    int previewReduce() const { return previewReduce_; }
    /// Sets the pixel count above which previews cover only the view, and are reduced to the
    /// screen's pixels at fit zoom. Takes effect at the next request.
    void setRegionPreviewThreshold(qint64 pixels);
    /// True while a requested preview has not reached the window yet.
    bool isPreviewPending() const { return !requested_.empty(); }
    /// The enabled filters of the document's stack as a chain. Throws std::invalid_argument when
    /// a filter refuses its parameters.
    filters::FilterChain stackChain() const;
    /// Hands the whole image with the stack applied to `done`. Before returning when no filter
    /// is enabled or the preview is of the current stack and covers the whole image; else the
    /// Engine computes it as a BackgroundJob while the GUI thread goes on (busy cursor, a
    /// status message, Escape or cancelWholeResult() gives up), and `done` is called from the
    /// event loop. `failed` gets the reason instead when a filter refuses its parameters, the
    /// Engine failed (its pipeline has already fallen back as its policy allows), the image or
    /// the stack changed before the result came, the wait was given up, or a whole result is
    /// still on its way for an earlier request. Neither is called once the controller is gone.
    void withCurrentResult(std::function<void(const cv::Mat&)> done, std::function<void(const QString&)> failed);
    /// True while a caller of withCurrentResult() waits for the Engine's whole result.
    bool isComputingWhole() const { return static_cast<bool>(wholeFailed_); }
    /// Text for the pixel at pos of the shown image (preview if any, else the image); empty
    /// outside the image.
    QString describePixel(const QPoint& pos) const;

    /// An opened image rendered for the screen (the display mapping, then the colours from its
    /// profile to sRGB) with what the status bar says of it.
    struct OpenedDisplay {
        QImage image;
        QString shown;
    };
    /// Renders image as showOpenedImage() shows it, under mapping and from the profile icc. Uses
    /// only its arguments: any thread (an opening's worker, so a 100 Mpixel image never holds the
    /// window).
    static OpenedDisplay renderOpened(const cv::Mat& image, const DisplayMapping& mapping, const std::string& icc);

public slots:
    /// Asks for a preview of the stack's enabled filters, or shows the image itself when none
    /// is enabled. A filter that refuses its parameters is reported as a notice.
    void previewStack();
    /// Asks the Engine for a preview of chain on the open image; the newest request wins.
    void requestPreview(const tessera::filters::FilterChain& chain);
    /// Shows 16-bit and float images through mapping; the data is not changed.
    void setDisplayMapping(const tessera::app::DisplayMapping& mapping);
    /// Shows the document's newly opened image (read from path), rendered here or given as
    /// prepared (renderOpened() of the same image, mapping and profile), and previews the stack.
    void showOpenedImage(const QString& path, std::optional<OpenedDisplay> prepared = std::nullopt);
    /// The ICC profile the open image's file carries (empty: none, taken as sRGB). Colours are
    /// converted from it to sRGB for the screen, never in the data, and the status bar names it.
    /// Takes effect at the next rendering (showOpenedImage() makes one).
    void setSourceProfile(const std::string& icc);
    /// Makes the stack's result the image and empties the stack, as one undo step; a notice
    /// when no filter is enabled.
    void applyPreview();
    /// Gives up the whole result a caller of withCurrentResult() waits for: its `failed` hears
    /// "cancelled" at once (the computation still finishes and becomes the preview). Nothing
    /// happens when none is awaited.
    void cancelWholeResult();

signals:
    /// A preview reached the window.
    void previewShown(quint64 id);

private:
    /// How the open image's colours reach the screen: its profile's name (empty: none) and,
    /// unless it is sRGB already, the transform to sRGB.
    struct ScreenProfile {
        QString name;
        bool convert = false;
        QColorTransform toScreen;
    };
    /// A request on its way: the chain, the image pixels it covers and its reduction.
    struct Request {
        filters::FilterChain chain;
        values::Rect region;
        int reduce = 1;
    };
    /// The reduction a preview of region needs now: for the whole of a large image shown at
    /// zoom 1/2 or less, the whole number of image pixels per screen pixel (floor(1 / zoom));
    /// otherwise 1 (every pixel).
    int wantedReduce(const values::Rect& region) const;

    void showPreview(const PreviewResult& result);
    quint64 requestRegion(const filters::FilterChain& chain, const values::Rect& region, int reduce = 1);
    void followView();
    void computeWhole(const filters::FilterChain& chain);
    void wholeArrived(const PreviewResult& whole, quint64 id, const filters::FilterChain& chain);
    void endWholeWait();
    values::Rect wholeImage() const;
    void showUnfiltered();
    void showDocumentImage();
    void forgetPreviews();
    QImage render(const cv::Mat& data, QString* shown) const;
    /// image (a rendering of the data) converted for the screen from the source profile, with
    /// the profile named in *shown.
    QImage forScreen(QImage image, QString* shown) const;
    static QImage forScreen(QImage image, QString* shown, const ScreenProfile& profile);
    static ScreenProfile screenProfileFor(const std::string& icc);
    void showOriginalRendering();

    ui::MainWindow& window_;
    document::Document& document_;
    cv::Mat preview_;
    filters::FilterChain previewChain_;     ///< what preview_ is the result of
    values::Rect previewRegion_;            ///< the image pixels preview_ covers
    int previewReduce_ = 1;                 ///< preview_ holds the means of blocks this wide
    filters::FilterChain wantedChain_;      ///< the chain last asked for; empty when none is enabled
    std::map<quint64, Request> requested_;  ///< requests not yet shown, by id
    bool waitingForWhole_ = false;          ///< a caller waits for the whole image
    bool filteredBase_ = false;             ///< the view's image is a whole preview, not the original
    Engine* engine_ = nullptr;
    ViewRegions* regions_ = nullptr;  ///< which part of the image previews cover
    quint64 shownPreview_ = 0;
    quint64 acceptFrom_ = 0;  ///< results of older requests belong to a previous image or stack
    DisplayMapping mapping_;
    ScreenProfile profile_;   ///< how the open image's colours reach the screen
    QImage originalDisplay_;  ///< the open image as displayed, the "before" of the split
    QString originalShown_;   ///< what black and white stand for in originalDisplay_
    /// The caller waiting for the whole result; both empty when none is (or it gave up).
    std::function<void(const cv::Mat&)> wholeDone_;
    std::function<void(const QString&)> wholeFailed_;
    QShortcut* cancelWhole_ = nullptr;
    QPointer<QProgressDialog>
        wholeProgress_;  ///< while a caller waits for the whole image  ///< Escape while a whole result is awaited
    /// Waits for the Engine's whole result off the GUI thread. Last: it waits for its work.
    BackgroundJob<PreviewResult> wholeJob_;
};

}  // namespace tessera::app::gui
