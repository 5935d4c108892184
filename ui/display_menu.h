// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace tessera::ui {

/// How 16-bit and float images are shown (8-bit images always show as they are); the data is
/// never changed, only the screen values.
struct DisplayOptions {
    bool stretch = true;    ///< data min-max to black-white; false: the type's full range
    bool absolute = false;  ///< negative values: |v|; false: 0 at mid-grey

    bool operator==(const DisplayOptions&) const = default;
};

/// The View > Display Mapping menu: range (data min-max or the type's full range) and negative
/// values (offset or absolute), kept in QSettings. GUI thread only.
class DisplayMenu : public QObject {
    Q_OBJECT

public:
    /// Adds the menu to parentMenu with the options read from QSettings.
    DisplayMenu(QMenu* parentMenu, QObject* parent = nullptr);

    /// The options the menu shows.
    DisplayOptions options() const;
    /// Shows options without emitting optionsChanged(); saves them.
    void setOptions(const DisplayOptions& options);

signals:
    /// The user picked another range or sign handling (already saved).
    void optionsChanged(const tessera::ui::DisplayOptions& options);

private:
    void save() const;

    QAction* stretch_ = nullptr;
    QAction* fullRange_ = nullptr;
    QAction* offset_ = nullptr;
    QAction* absolute_ = nullptr;
};

}  // namespace tessera::ui
