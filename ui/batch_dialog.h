// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/encode_options.h"
#include "ui/batch_progress.h"
#include "ui/preferences_dialog.h"

#include <QDialog>
#include <QString>
#include <QStringList>

#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QRadioButton;

namespace tessera::ui {

class EncodeOptionsWidget;

/// What the user set up in the batch dialog, as plain text values; app/ turns it into a job.
struct BatchRequest {
    QStringList inputs;  ///< files and folders, in list order
    bool recursive = false;
    QString presetPath;  ///< empty: the current filter stack
    QString outputDir;
    QString nameTemplate;
    QString format;          ///< extension without dot; empty keeps the input's
    QString depth;           ///< "keep", "u8", "u16", "f32"
    QString policy;          ///< "skip", "rename", "overwrite"
    QString device;          ///< a DeviceOption key: "auto", "cpu", "gpu:0", "all"
    bool jpegOnGpu = false;  ///< decode JPEGs with nvJPEG on the batch's GPUs where it can
    bool manifest = false;
    values::EncodeOptions encode;  ///< quality and compression, by output format
};

/// Batch > Run Batch: inputs (buttons or drag and drop), the filters (current stack or a preset
/// file), output folder, name template with a live example, format, depth, policy and device;
/// Start and Cancel; progress of the run and of the current file with elapsed time and an
/// estimate; a results table that can be saved as CSV. Runs nothing itself: it emits requests
/// and app/ reports back through the setters. Remembers its choices in QSettings. GUI thread.
class BatchDialog : public QDialog {
    Q_OBJECT

public:
    explicit BatchDialog(QWidget* parent = nullptr);

    /// The settings as they stand.
    BatchRequest request() const;
    /// Appends paths to the inputs list, leaving out ones already there.
    void addInputs(const QStringList& paths);
    /// Sets the devices offered (the first is selected unless the stored one is among them).
    void setDeviceOptions(const std::vector<DeviceOption>& options);
    /// Describes the current stack beside its choice, e.g. "gaussian + box" ("empty" disables it).
    void setCurrentStackText(const QString& text, bool usable);
    /// Shows the output name the first input would get, or why the template cannot be used.
    void setExample(const QString& text, bool ok);
    /// Switches between set-up (Start enabled) and running (Cancel enabled); running clears the
    /// results and starts the clock.
    void setRunning(bool running);
    /// Updates the progress bars, the current file and the time estimate.
    void setProgress(int done, int total, const QString& currentFile, double fileFraction);
    /// Appends one row to the results table.
    void addResult(const BatchResultRow& row);
    /// Shows the run's summary line (also used for refusals before the run).
    void setSummary(const QString& text);
    /// The batch was refused before it started: the table holds one row per listed input with
    /// status "refused" and reason (nothing was written), and the summary says "Not started".
    void showRefusal(const QString& reason);
    /// Number of rows in the results table.
    int resultCount() const;
    /// Skips file pickers and message boxes (tests).
    void setInteractive(bool interactive) { interactive_ = interactive; }

signals:
    /// The user pressed Start.
    void startRequested(const tessera::ui::BatchRequest& request);
    /// The user pressed Cancel during a run.
    void cancelRequested();
    /// A setting that changes output names changed; app/ answers with setExample().
    void requestChanged(const tessera::ui::BatchRequest& request);
    /// The user chose a file to save the results table as CSV.
    void saveCsvRequested(const QString& path);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    QWidget* createInputs();
    QWidget* createFilters();
    QWidget* createOutput();
    void restoreSettings();
    void storeSettings() const;
    void chooseFiles();
    void chooseFolder();
    void choosePreset();
    void chooseOutputFolder();
    void emitChanged();
    /// The Quality row under Format: the chosen output format's encoder choices.
    void addEncodingRow(QFormLayout* form, QWidget* box);
    void start();

    QListWidget* inputs_ = nullptr;
    QCheckBox* recursive_ = nullptr;
    QRadioButton* useStack_ = nullptr;
    QRadioButton* usePreset_ = nullptr;
    QLineEdit* preset_ = nullptr;
    QLineEdit* outputDir_ = nullptr;
    QLineEdit* template_ = nullptr;
    QLabel* example_ = nullptr;
    QComboBox* format_ = nullptr;
    QComboBox* depth_ = nullptr;
    QComboBox* policy_ = nullptr;
    QComboBox* device_ = nullptr;
    QCheckBox* jpegOnGpu_ = nullptr;
    QCheckBox* manifest_ = nullptr;
    EncodeOptionsWidget* encode_ = nullptr;
    BatchProgress* progress_ = nullptr;
    QPushButton* start_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* saveCsv_ = nullptr;
    QString storedDevice_;
    bool running_ = false;
    bool interactive_ = true;
};

}  // namespace tessera::ui
