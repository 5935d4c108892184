// SPDX-License-Identifier: Apache-2.0
#include "ui/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QScrollBar>
#include <QWheelEvent>

namespace tessera::ui {

namespace {

/// A value field whose wheel steps change what it holds (scroll bars only scroll).
bool isField(const QObject* object)
{
    return qobject_cast<const QComboBox*>(object) != nullptr ||
           qobject_cast<const QAbstractSpinBox*>(object) != nullptr ||
           (qobject_cast<const QAbstractSlider*>(object) != nullptr &&
            qobject_cast<const QScrollBar*>(object) == nullptr);
}

/// The scroll area that field sits in, or null.
QAbstractScrollArea* scrollAreaAround(const QWidget* field)
{
    for (QWidget* w = field->parentWidget(); w != nullptr; w = w->parentWidget()) {
        if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
            return area;
        }
    }
    return nullptr;
}

}  // namespace

WheelGuard::WheelGuard(QObject* parent) : QObject(parent)
{
    qApp->installEventFilter(this);
}

WheelGuard::~WheelGuard()
{
    qApp->removeEventFilter(this);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Wheel && event->type() != QEvent::Polish) {
        return false;
    }
    if (!watched->isWidgetType() || !isField(watched)) {
        return false;
    }
    auto* field = static_cast<QWidget*>(watched);
    QAbstractScrollArea* area = scrollAreaAround(field);
    if (area == nullptr) {
        return false;
    }
    if (event->type() == QEvent::Polish) {
        // Without wheel focus, a wheel step passing over the field does not select it.
        if ((field->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus) {
            field->setFocusPolicy(Qt::StrongFocus);
        }
        return false;
    }
    if (field->hasFocus()) {
        return false;
    }
    // The panel scrolls instead; the field's value stays.
    auto* wheel = static_cast<QWheelEvent*>(event);
    const QPointF at = area->viewport()->mapFromGlobal(wheel->globalPosition());
    QWheelEvent copy(at, wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(), wheel->buttons(),
                     wheel->modifiers(), wheel->phase(), wheel->inverted(), wheel->source());
    QCoreApplication::sendEvent(area->viewport(), &copy);
    return true;
}

}  // namespace tessera::ui
