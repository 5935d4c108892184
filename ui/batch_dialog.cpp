// SPDX-License-Identifier: Apache-2.0
#include "ui/batch_dialog.h"

#include "ui/encode_options_widget.h"
#include "ui/screen_fit.h"

#include "ui/file_dialogs.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QUrl>
#include <QVBoxLayout>

namespace tessera::ui {

namespace {

const QString kGroup = QStringLiteral("batch/");

QPushButton* button(const QString& text, const QString& name, QWidget* parent)
{
    auto* b = new QPushButton(text, parent);
    b->setObjectName(name);
    return b;
}

}  // namespace

BatchDialog::BatchDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Run Batch"));
    setObjectName(QStringLiteral("batchDialog"));
    setAcceptDrops(true);
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    auto* left = new QVBoxLayout;
    left->addWidget(createInputs());
    left->addWidget(createFilters());
    top->addLayout(left, 1);
    top->addWidget(createOutput(), 1);
    layout->addLayout(top);
    progress_ = new BatchProgress(this);
    layout->addWidget(progress_, 2);

    auto* buttons = new QHBoxLayout;
    start_ = button(tr("&Start"), QStringLiteral("batchStart"), this);
    cancel_ = button(tr("&Cancel"), QStringLiteral("batchCancel"), this);
    saveCsv_ = button(tr("Save &CSV\u2026"), QStringLiteral("batchSaveCsv"), this);
    auto* close = button(tr("Close"), QStringLiteral("batchClose"), this);
    cancel_->setEnabled(false);
    saveCsv_->setEnabled(false);
    start_->setDefault(true);
    buttons->addWidget(saveCsv_);
    buttons->addStretch(1);
    buttons->addWidget(start_);
    buttons->addWidget(cancel_);
    buttons->addWidget(close);
    layout->addLayout(buttons);

    connect(start_, &QPushButton::clicked, this, &BatchDialog::start);
    connect(cancel_, &QPushButton::clicked, this, [this] {
        cancel_->setEnabled(false);
        progress_->setSummary(tr("Cancelling: the files being written are finished, the rest left out\u2026"), true);
        emit cancelRequested();
    });
    connect(close, &QPushButton::clicked, this, &QDialog::close);
    connect(saveCsv_, &QPushButton::clicked, this, [this] {
        const QString path = interactive_
                                 ? QFileDialog::getSaveFileName(this, tr("Save Results"),
                                                                outputDir_->text() + QStringLiteral("/results.csv"),
                                                                tr("CSV files (*.csv)"))
                                 : QString();
        if (!path.isEmpty()) {
            emit saveCsvRequested(path);
        }
    });
    restoreSettings();
    resize(fittedSize(QSize(900, 640), availableArea(parentWidget())));
}

QWidget* BatchDialog::createInputs()
{
    auto* box = new QGroupBox(tr("Inputs"), this);
    auto* layout = new QVBoxLayout(box);
    inputs_ = new QListWidget(box);
    inputs_->setObjectName(QStringLiteral("batchInputs"));
    inputs_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    inputs_->setToolTip(tr("Image files and folders; drop them here or use the buttons"));
    inputs_->setMaximumHeight(130);
    layout->addWidget(inputs_);
    auto* row = new QHBoxLayout;
    auto* addFiles = button(tr("Add &Files\u2026"), QStringLiteral("batchAddFiles"), box);
    auto* addFolder = button(tr("Add F&older\u2026"), QStringLiteral("batchAddFolder"), box);
    auto* remove = button(tr("&Remove"), QStringLiteral("batchRemove"), box);
    row->addWidget(addFiles);
    row->addWidget(addFolder);
    row->addWidget(remove);
    layout->addLayout(row);
    recursive_ = new QCheckBox(tr("Include sub-folders"), box);
    recursive_->setObjectName(QStringLiteral("batchRecursive"));
    layout->addWidget(recursive_);
    connect(addFiles, &QPushButton::clicked, this, &BatchDialog::chooseFiles);
    connect(addFolder, &QPushButton::clicked, this, &BatchDialog::chooseFolder);
    connect(remove, &QPushButton::clicked, this, [this] {
        qDeleteAll(inputs_->selectedItems());
        emitChanged();
    });
    return box;
}

QWidget* BatchDialog::createFilters()
{
    auto* box = new QGroupBox(tr("Filters"), this);
    auto* layout = new QVBoxLayout(box);
    useStack_ = new QRadioButton(tr("Current stack"), box);
    useStack_->setObjectName(QStringLiteral("batchUseStack"));
    usePreset_ = new QRadioButton(tr("Preset file:"), box);
    usePreset_->setObjectName(QStringLiteral("batchUsePreset"));
    useStack_->setChecked(true);
    preset_ = new QLineEdit(box);
    preset_->setObjectName(QStringLiteral("batchPreset"));
    auto* browse = button(tr("Browse\u2026"), QStringLiteral("batchBrowsePreset"), box);
    auto* row = new QHBoxLayout;
    row->addWidget(usePreset_);
    row->addWidget(preset_, 1);
    row->addWidget(browse);
    layout->addWidget(useStack_);
    layout->addLayout(row);
    connect(browse, &QPushButton::clicked, this, &BatchDialog::choosePreset);
    connect(preset_, &QLineEdit::textChanged, this, [this] {
        usePreset_->setChecked(true);
        emitChanged();
    });
    connect(useStack_, &QRadioButton::toggled, this, &BatchDialog::emitChanged);
    return box;
}

void BatchDialog::addEncodingRow(QFormLayout* form, QWidget* box)
{
    encode_ = new EncodeOptionsWidget(box);
    encode_->setObjectName(QStringLiteral("batchEncoding"));
    encode_->setCompact(true);
    encode_->setOptions(rememberedEncodeOptions());
    form->addRow(tr("Quality:"), encode_);
    // Only the chosen format's choices; every format's when outputs keep their input's.
    const auto showEncoding = [this, form] {
        const QString ext = format_->currentData().toString();
        const auto format = ext.isEmpty() ? values::EncodedFormat::Other
                                          : values::encodedFormatOf(QStringLiteral("x.").append(ext).toStdString());
        encode_->showFormat(format);
        encode_->setVisible(ext.isEmpty() || format != values::EncodedFormat::Other);
        if (auto* label = form->labelForField(encode_)) {
            label->setVisible(encode_->isVisibleTo(encode_->parentWidget()));
        }
    };
    connect(format_, &QComboBox::currentIndexChanged, this, showEncoding);
    showEncoding();
}

QWidget* BatchDialog::createOutput()
{
    auto* box = new QGroupBox(tr("Output"), this);
    auto* form = new QFormLayout(box);
    outputDir_ = new QLineEdit(box);
    outputDir_->setObjectName(QStringLiteral("batchOutputFolder"));
    auto* browse = button(tr("Browse\u2026"), QStringLiteral("batchBrowseOutput"), box);
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(outputDir_, 1);
    folderRow->addWidget(browse);
    form->addRow(tr("Folder:"), folderRow);
    template_ = new QLineEdit(box);
    template_->setObjectName(QStringLiteral("batchTemplate"));
    template_->setToolTip(tr("The output name without extension: {stem} {ext} {filter} {index} {date}"));
    form->addRow(tr("Name:"), template_);
    example_ = new QLabel(box);
    example_->setObjectName(QStringLiteral("batchExample"));
    example_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Example:"), example_);
    format_ = new QComboBox(box);
    format_->setObjectName(QStringLiteral("batchFormat"));
    format_->addItem(tr("Same as input"), QString());
    for (const char* ext : {"png", "tif", "jpg", "bmp", "webp", "exr"}) {
        format_->addItem(QString::fromLatin1(ext).toUpper(), QString::fromLatin1(ext));
    }
    form->addRow(tr("Format:"), format_);
    addEncodingRow(form, box);
    depth_ = new QComboBox(box);
    depth_->setObjectName(QStringLiteral("batchDepth"));
    depth_->addItem(tr("Keep"), QStringLiteral("keep"));
    depth_->addItem(tr("8-bit"), QStringLiteral("u8"));
    depth_->addItem(tr("16-bit"), QStringLiteral("u16"));
    depth_->addItem(tr("32-bit float"), QStringLiteral("f32"));
    form->addRow(tr("Depth:"), depth_);
    policy_ = new QComboBox(box);
    policy_->setObjectName(QStringLiteral("batchPolicy"));
    policy_->addItem(tr("Skip existing outputs"), QStringLiteral("skip"));
    policy_->addItem(tr("Rename (add -1, -2\u2026)"), QStringLiteral("rename"));
    policy_->addItem(tr("Overwrite outputs"), QStringLiteral("overwrite"));
    form->addRow(tr("If it exists:"), policy_);
    device_ = new QComboBox(box);
    device_->setObjectName(QStringLiteral("batchDevice"));
    for (const DeviceOption& o : PreferencesDialog::basicDeviceOptions()) {
        device_->addItem(o.label, o.key);
    }
    form->addRow(tr("Device:"), device_);
    jpegOnGpu_ = new QCheckBox(tr("Decode JPEGs on the GPU (nvJPEG)"), box);
    jpegOnGpu_->setObjectName(QStringLiteral("batchJpegOnGpu"));
    jpegOnGpu_->setToolTip(tr("Reads JPEG inputs with nvJPEG on the batch's GPUs; files it cannot read, and "
                              "machines without it, use libjpeg-turbo. The results list which decoder read "
                              "each file. Off by default: with enough CPU cores, libjpeg-turbo is faster."));
    form->addRow(QString(), jpegOnGpu_);
    // nvJPEG needs a GPU: the choice means nothing when the batch runs on the CPU.
    const auto gpuChosen = [this] {
        jpegOnGpu_->setEnabled(device_->currentData().toString() != QLatin1String("cpu"));
    };
    connect(device_, &QComboBox::currentIndexChanged, this, gpuChosen);
    manifest_ = new QCheckBox(tr("Write a manifest beside each output"), box);
    manifest_->setObjectName(QStringLiteral("batchManifest"));
    manifest_->setToolTip(tr("OUTPUT.json: input SHA-256, every filter setting, device, versions and timings"));
    form->addRow(QString(), manifest_);

    connect(browse, &QPushButton::clicked, this, &BatchDialog::chooseOutputFolder);
    connect(outputDir_, &QLineEdit::textChanged, this, &BatchDialog::emitChanged);
    connect(template_, &QLineEdit::textChanged, this, &BatchDialog::emitChanged);
    connect(format_, &QComboBox::currentIndexChanged, this, &BatchDialog::emitChanged);
    return box;
}

BatchRequest BatchDialog::request() const
{
    BatchRequest r;
    for (int i = 0; i < inputs_->count(); ++i) {
        r.inputs << inputs_->item(i)->text();
    }
    r.recursive = recursive_->isChecked();
    r.presetPath = usePreset_->isChecked() ? preset_->text().trimmed() : QString();
    r.outputDir = outputDir_->text().trimmed();
    r.nameTemplate = template_->text();
    r.format = format_->currentData().toString();
    r.depth = depth_->currentData().toString();
    r.policy = policy_->currentData().toString();
    r.device = device_->currentData().toString();
    r.jpegOnGpu = jpegOnGpu_->isEnabled() && jpegOnGpu_->isChecked();
    r.manifest = manifest_->isChecked();
    r.encode = encode_->options();
    return r;
}

void BatchDialog::addInputs(const QStringList& paths)
{
    for (const QString& path : paths) {
        if (!path.isEmpty() && inputs_->findItems(path, Qt::MatchExactly).isEmpty()) {
            inputs_->addItem(path);
        }
    }
    emitChanged();
}

void BatchDialog::setDeviceOptions(const std::vector<DeviceOption>& options)
{
    const QString wanted =
        device_->count() > 0 && device_->currentIndex() > 0 ? device_->currentData().toString() : storedDevice_;
    device_->clear();
    for (const DeviceOption& o : options) {
        device_->addItem(o.label, o.key);
    }
    device_->setCurrentIndex(std::max(0, device_->findData(wanted)));
}

void BatchDialog::setCurrentStackText(const QString& text, bool usable)
{
    useStack_->setText(tr("Current stack: %1").arg(text));
    useStack_->setEnabled(usable);
    if (!usable && useStack_->isChecked()) {
        usePreset_->setChecked(true);
    }
}

void BatchDialog::setExample(const QString& text, bool ok)
{
    example_->setText(text);
    example_->setStyleSheet(ok ? QString() : QStringLiteral("color: #b00020;"));
}

void BatchDialog::setRunning(bool running)
{
    running_ = running;
    start_->setEnabled(!running);
    cancel_->setEnabled(running);
    if (running) {
        saveCsv_->setEnabled(false);
        progress_->begin();
    } else {
        saveCsv_->setEnabled(progress_->resultCount() > 0);
        progress_->end();
    }
}

void BatchDialog::setProgress(int done, int total, const QString& currentFile, double fileFraction)
{
    progress_->setProgress(done, total, currentFile, fileFraction);
}

void BatchDialog::addResult(const BatchResultRow& row)
{
    progress_->addResult(row);
}

void BatchDialog::setSummary(const QString& text)
{
    progress_->setSummary(text, running_);
}

void BatchDialog::showRefusal(const QString& reason)
{
    progress_->reset();
    QStringList files = request().inputs;
    if (files.isEmpty()) {
        files << tr("(no inputs)");
    }
    for (const QString& file : files) {
        progress_->addResult({file, QStringLiteral("refused"), QString(), 0.0, QString(), reason, QString()});
    }
    running_ = false;
    start_->setEnabled(true);
    cancel_->setEnabled(false);
    saveCsv_->setEnabled(true);
    setSummary(tr("Not started: %1").arg(reason));
}

int BatchDialog::resultCount() const
{
    return progress_->resultCount();
}

void BatchDialog::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls()) {
        event->acceptProposedAction();
    }
}

void BatchDialog::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            paths << url.toLocalFile();
        }
    }
    addInputs(paths);
    event->acceptProposedAction();
}

void BatchDialog::closeEvent(QCloseEvent* event)
{
    // Closing during a run cancels it rather than leaving it running behind a hidden window.
    if (running_) {
        emit cancelRequested();
    }
    storeSettings();
    QDialog::closeEvent(event);
}

void BatchDialog::restoreSettings()
{
    const QSettings s;
    outputDir_->setText(s.value(kGroup + QStringLiteral("outputFolder")).toString());
    template_->setText(s.value(kGroup + QStringLiteral("template"), QStringLiteral("{stem}-{filter}")).toString());
    policy_->setCurrentIndex(std::max(0, policy_->findData(s.value(kGroup + QStringLiteral("policy")))));
    format_->setCurrentIndex(std::max(0, format_->findData(s.value(kGroup + QStringLiteral("format")))));
    depth_->setCurrentIndex(std::max(0, depth_->findData(s.value(kGroup + QStringLiteral("depth")))));
    recursive_->setChecked(s.value(kGroup + QStringLiteral("recursive"), false).toBool());
    manifest_->setChecked(s.value(kGroup + QStringLiteral("manifest"), false).toBool());
    storedDevice_ = s.value(kGroup + QStringLiteral("device")).toString();
    device_->setCurrentIndex(std::max(0, device_->findData(storedDevice_)));
    jpegOnGpu_->setChecked(s.value(kGroup + QStringLiteral("jpegOnGpu"), false).toBool());
    encode_->setOptions(rememberedEncodeOptions());
}

void BatchDialog::storeSettings() const
{
    QSettings s;
    s.setValue(kGroup + QStringLiteral("outputFolder"), outputDir_->text());
    s.setValue(kGroup + QStringLiteral("template"), template_->text());
    s.setValue(kGroup + QStringLiteral("policy"), policy_->currentData());
    s.setValue(kGroup + QStringLiteral("format"), format_->currentData());
    s.setValue(kGroup + QStringLiteral("depth"), depth_->currentData());
    s.setValue(kGroup + QStringLiteral("recursive"), recursive_->isChecked());
    s.setValue(kGroup + QStringLiteral("manifest"), manifest_->isChecked());
    s.setValue(kGroup + QStringLiteral("device"), device_->currentData());
    s.setValue(kGroup + QStringLiteral("jpegOnGpu"), jpegOnGpu_->isChecked());
    rememberEncodeOptions(encode_->options());
}

void BatchDialog::chooseFiles()
{
    QSettings s;
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Add Images"),
        startFolder(FolderRole::Open, s.value(kGroup + QStringLiteral("inputFolder")).toString()),
        tr("Images (*.png *.jpg *.jpeg *.tif *.tiff *.bmp *.webp *.exr);;All files (*)"));
    if (!files.isEmpty()) {
        s.setValue(kGroup + QStringLiteral("inputFolder"), QFileInfo(files.front()).absolutePath());
        addInputs(files);
    }
}

void BatchDialog::chooseFolder()
{
    QSettings s;
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Add Folder"),
        startFolder(FolderRole::Open, s.value(kGroup + QStringLiteral("inputFolder")).toString()));
    if (!folder.isEmpty()) {
        s.setValue(kGroup + QStringLiteral("inputFolder"), folder);
        addInputs({folder});
    }
}

void BatchDialog::choosePreset()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Choose Preset"), startFolder(FolderRole::Preset, preset_->text()),
                                     tr("Presets (*.json);;All files (*)"));
    if (!path.isEmpty()) {
        rememberFolder(FolderRole::Preset, path);
        preset_->setText(path);
    }
}

void BatchDialog::chooseOutputFolder()
{
    const QString folder =
        QFileDialog::getExistingDirectory(this, tr("Output Folder"), startFolder(FolderRole::Save, outputDir_->text()));
    if (!folder.isEmpty()) {
        outputDir_->setText(folder);
    }
}

void BatchDialog::emitChanged()
{
    emit requestChanged(request());
}

void BatchDialog::start()
{
    storeSettings();
    emit startRequested(request());
}

}  // namespace tessera::ui
