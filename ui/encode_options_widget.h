// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/encode_options.h"

#include <QDialog>
#include <QString>
#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace tessera::ui {

/// The encoder choices of the formats that have any (JPEG quality, PNG compression level, TIFF
/// compression, WebP lossless or quality), each on a row with a line saying what it trades.
/// Used by the Save and Export dialog, the batch dialog and Preferences. GUI thread.
class EncodeOptionsWidget : public QWidget {
    Q_OBJECT

public:
    explicit EncodeOptionsWidget(QWidget* parent = nullptr);

    /// Shows the rows of format only; Other shows every row (a batch whose outputs keep each
    /// input's format).
    void showFormat(values::EncodedFormat format);
    void setOptions(const values::EncodeOptions& options);
    values::EncodeOptions options() const;
    /// Compact: the lines of explanation become tooltips (the batch dialog).
    void setCompact(bool compact);

signals:
    void changed();

private:
    QFormLayout* form_ = nullptr;
    QSpinBox* jpeg_ = nullptr;
    QSpinBox* png_ = nullptr;
    QComboBox* tiff_ = nullptr;
    QCheckBox* webpLossless_ = nullptr;
    QSpinBox* webpQuality_ = nullptr;
    QWidget* rows_[4] = {};
    QLabel* lines_[4] = {};
};

/// The choices last made (QSettings "output/…"); the encoders' defaults before any was made.
values::EncodeOptions rememberedEncodeOptions();
/// Keeps options as the last choices.
void rememberEncodeOptions(const values::EncodeOptions& options);

/// The small dialog Save, Save As and Export show once the file name is chosen, for a format
/// with choices: the file's name, an optional note (what the original was saved at) and the
/// format's rows. GUI thread.
class EncodeOptionsDialog : public QDialog {
    Q_OBJECT

public:
    EncodeOptionsDialog(const QString& path, const values::EncodeOptions& initial, const QString& note,
                        QWidget* parent = nullptr);
    values::EncodeOptions options() const;

private:
    EncodeOptionsWidget* choices_ = nullptr;
};

}  // namespace tessera::ui
