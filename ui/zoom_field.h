// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QLineEdit>

#include <optional>

namespace tessera::ui {

/// The zoom as an editable percentage in the toolbar ("150%"). It shows every change of the
/// view's zoom; Enter applies a typed percentage (the % sign is optional, values beyond the
/// view's limits are clamped by the view), Escape or leaving the field puts the current zoom
/// back, and text that is not a positive number is refused: the field keeps the current zoom
/// and says why in its tooltip. GUI thread only.
class ZoomField : public QLineEdit {
    Q_OBJECT

public:
    /// Creates an empty field (no image shown yet).
    explicit ZoomField(QWidget* parent = nullptr);

    /// The zoom factor typed text stands for ("150%", "150", "12.5 %" -> 1.5, 1.5, 0.125), or
    /// nothing when it is not a positive finite percentage.
    static std::optional<double> parsePercent(const QString& text);
    /// The text shown for factor: a percentage with at most one decimal ("12.5%").
    static QString formatPercent(double factor);

public slots:
    /// Shows factor unless the user is typing in the field.
    void showZoom(double factor);

signals:
    /// The user entered a valid percentage; factor is it divided by 100.
    void zoomRequested(double factor);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    void apply();
    void restore();

    double factor_ = 1.0;
    QString tip_;
};

}  // namespace tessera::ui
