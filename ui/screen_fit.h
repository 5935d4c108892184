// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QRect>
#include <QSize>

class QWidget;

namespace tessera::ui {

/// The part of widget's screen that windows may use (the primary screen's before it has one):
/// the screen less panels and docks of the desktop.
QRect availableArea(const QWidget* widget);

/// wanted, made no larger than 95 % of area in each direction, so that a window fits a small
/// screen with its frame and the desktop's panels.
QSize fittedSize(QSize wanted, const QRect& area);

/// Moves and, where needed, shrinks a top-level window so that its frame lies within area: a
/// geometry saved on a larger or another screen comes back whole and on this one.
void keepWithin(QWidget* window, const QRect& area);

}  // namespace tessera::ui
