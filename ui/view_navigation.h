// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QPoint>

class QAbstractScrollArea;

namespace tessera::ui {

class ImageView;

/// The image view's navigation habits from other image editors, on top of its own (Ctrl+wheel
/// zoom, left-drag pan): with the view focused, plain + (or =) and - zoom, 1 shows actual size
/// and 0 fits the window; the middle button drags the image about; Shift+wheel scrolls
/// sideways. Installed on the view by the view itself. GUI thread only.
class ViewNavigation : public QObject {
    Q_OBJECT

public:
    explicit ViewNavigation(ImageView* view);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool keyPressed(QEvent* event);
    bool viewportEvent(QEvent* event);

    ImageView* view_;
    /// Kept from the start: while the view is being destroyed it is no longer an ImageView (nor a
    /// scroll area), and asking it for its viewport then would be undefined.
    QObject* viewport_ = nullptr;
    bool panning_ = false;
    QPoint lastPan_;
};

}  // namespace tessera::ui
