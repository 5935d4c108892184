// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <array>

class QLabel;
class QStatusBar;

namespace tessera::ui {

/// The permanent fields of the main window's status bar, left to right, and its passing
/// messages. Each field is a QLabel named for tests (pixelLabel, imageInfoLabel, displayLabel,
/// previewLabel, computeLabel). The zoom is in the toolbar's zoom field, not here. GUI thread
/// only.
class WindowStatus : public QObject {
    Q_OBJECT

public:
    enum Field { Pixel, ImageInfo, Display, Preview, Compute, kFieldCount };

    /// Adds the fields to bar (owned by the caller, outlives this object).
    explicit WindowStatus(QStatusBar* bar);

    /// Shows text in field, also in its tooltip where the field may be cut short (Display,
    /// Preview, Compute); Pixel and Display hide while empty.
    void set(Field field, const QString& text);
    /// What field shows.
    QString text(Field field) const;
    /// A message that passes after a while. One longer than the room beside the fields is cut
    /// with "…"; the bar's tooltip holds it whole.
    void showMessage(const QString& message);
    /// The whole passing message on show; empty once it has passed.
    QString message() const { return message_; }

protected:
    /// Cuts the passing message again when the bar is resized or its fields are laid out anew.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The width left of the permanent fields, where the passing message is drawn.
    int messageRoom() const;
    /// Shows message_ cut to messageRoom(), for what is left of its time (all of it when new).
    void showCut(int ms);

    QStatusBar* bar_;
    std::array<QLabel*, kFieldCount> labels_{};
    std::array<QString, kFieldCount> texts_{};
    QString message_;
    QElapsedTimer shownAt_;  ///< since message_ was shown
    QString
        displayTip_;  ///< what the Display field is, below its whole text in its tooltip  ///< the whole texts; labels may show them elided
};

}  // namespace tessera::ui
