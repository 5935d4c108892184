// SPDX-License-Identifier: Apache-2.0
#include "ui/view_navigation.h"

#include "ui/image_view.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

namespace tessera::ui {

ViewNavigation::ViewNavigation(ImageView* view) : QObject(view), view_(view), viewport_(view->viewport())
{
    view_->installEventFilter(this);
    viewport_->installEventFilter(this);
}

bool ViewNavigation::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == view_ && event->type() == QEvent::KeyPress) {
        return keyPressed(event);
    }
    if (watched == viewport_) {
        return viewportEvent(event);
    }
    return false;
}

bool ViewNavigation::keyPressed(QEvent* event)
{
    auto* key = static_cast<QKeyEvent*>(event);
    // Only the plain keys (or with the keypad's flag): Ctrl+1 and the like stay menu shortcuts.
    if ((key->modifiers() & ~(Qt::KeypadModifier | Qt::ShiftModifier)) != Qt::NoModifier || !view_->hasImage()) {
        return false;
    }
    switch (key->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: view_->zoomIn(); return true;
    case Qt::Key_Minus:
    case Qt::Key_Underscore: view_->zoomOut(); return true;
    case Qt::Key_1: view_->actualSize(); return true;
    case Qt::Key_0: view_->fitToWindow(); return true;
    default: return false;
    }
}

bool ViewNavigation::viewportEvent(QEvent* event)
{
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        if (mouse->button() != Qt::MiddleButton) {
            return false;
        }
        panning_ = true;
        lastPan_ = mouse->position().toPoint();
        view_->viewport()->setCursor(Qt::ClosedHandCursor);
        return true;
    }
    case QEvent::MouseMove: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        if (!panning_ || !(mouse->buttons() & Qt::MiddleButton)) {
            return false;
        }
        const QPoint at = mouse->position().toPoint();
        const QPoint moved = at - lastPan_;
        lastPan_ = at;
        view_->horizontalScrollBar()->setValue(view_->horizontalScrollBar()->value() - moved.x());
        view_->verticalScrollBar()->setValue(view_->verticalScrollBar()->value() - moved.y());
        return false;  // the view still follows the pointer for the pixel readout
    }
    case QEvent::MouseButtonRelease: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        if (!panning_ || mouse->button() != Qt::MiddleButton) {
            return false;
        }
        panning_ = false;
        view_->viewport()->unsetCursor();
        return true;
    }
    case QEvent::Wheel: {
        auto* wheel = static_cast<QWheelEvent*>(event);
        if (wheel->modifiers() != Qt::ShiftModifier) {
            return false;
        }
        // Some systems already turn Shift+wheel into a sideways step; take whichever is there.
        const int delta = wheel->angleDelta().x() != 0 ? wheel->angleDelta().x() : wheel->angleDelta().y();
        QScrollBar* bar = view_->horizontalScrollBar();
        bar->setValue(bar->value() - delta * bar->singleStep() / 40);
        return true;
    }
    default: return false;
    }
}

}  // namespace tessera::ui
