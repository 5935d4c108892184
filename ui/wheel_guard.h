// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

namespace tessera::ui {

/// Keeps the mouse wheel for scrolling in the scrolling panels: a combo box, spin box or slider
/// inside a scroll area takes wheel steps only once it has focus (a click or Tab gives it);
/// before that the wheel scrolls the panel under the pointer. Installed on the application by
/// the main window; GUI thread only.
class WheelGuard : public QObject {
    Q_OBJECT

public:
    explicit WheelGuard(QObject* parent = nullptr);
    ~WheelGuard() override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace tessera::ui
