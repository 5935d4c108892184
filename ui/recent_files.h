// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace tessera::ui {

/// The File > Open Recent list: newest first, at most kMaxEntries, kept in QSettings so it
/// survives restarts. Fills the given menu; GUI thread only.
class RecentFiles : public QObject {
    Q_OBJECT

public:
    /// Longest list kept.
    static constexpr int kMaxEntries = 10;

    /// Reads the list from QSettings and fills menu; menu must outlive this object.
    explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);

    /// The paths, newest first.
    QStringList files() const { return files_; }
    /// Moves path to the front (adding it if new), trims the list and saves it.
    void add(const QString& path);
    /// Empties the list and saves it.
    void clear();

signals:
    /// The user picked an entry.
    void fileChosen(const QString& path);

private:
    void save() const;
    void rebuildMenu();

    QMenu* menu_;
    QStringList files_;
};

}  // namespace tessera::ui
