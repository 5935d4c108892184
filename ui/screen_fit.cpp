// SPDX-License-Identifier: Apache-2.0
#include "ui/screen_fit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace tessera::ui {

QRect availableArea(const QWidget* widget)
{
    const QScreen* screen = widget != nullptr ? widget->screen() : nullptr;
    if (screen == nullptr) {
        screen = QGuiApplication::primaryScreen();
    }
    return screen != nullptr ? screen->availableGeometry() : QRect(0, 0, 1280, 800);
}

QSize fittedSize(QSize wanted, const QRect& area)
{
    return wanted.boundedTo(QSize(area.width() * 95 / 100, area.height() * 95 / 100));
}

void keepWithin(QWidget* window, const QRect& area)
{
    // The frame (title bar, borders) is what must fit; the client area is what resize() sets.
    const QRect frame = window->frameGeometry();
    const QSize extra = frame.size() - window->geometry().size();
    const QSize client = window->size().boundedTo(area.size() - extra);
    if (client != window->size()) {
        window->resize(client);
    }
    const QSize whole = client + extra;
    const int x = std::clamp(frame.x(), area.left(), area.left() + area.width() - whole.width());
    const int y = std::clamp(frame.y(), area.top(), area.top() + area.height() - whole.height());
    if (x != frame.x() || y != frame.y()) {
        window->move(x, y);
    }
}

}  // namespace tessera::ui
