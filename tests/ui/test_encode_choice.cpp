// SPDX-License-Identifier: Apache-2.0
// Quality and compression are offered where files are written: Save starts a JPEG at the
// quality its original was saved at, Export and Save As at the last choices (remembered), a
// plain Save of a lossless format asks nothing, Cancel writes nothing, and the batch dialog
// offers the chosen format's choices.
#include "app/gui/batch_controller.h"
#include "app/devices/device_scheduler.h"
#include "app/io/encode_choice.h"
#include "app/io/image_io.h"
#include "gui_test_support.h"
#include "ui/batch_dialog.h"
#include "ui/encode_options_widget.h"
#include "ui/file_dialogs.h"
#include "ui/preferences_dialog.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <optional>

namespace {

using tessera::values::EncodeOptions;

/// A smooth colour picture, so JPEG qualities differ in size and the tables matter.
cv::Mat picture()
{
    cv::Mat img(120, 160, CV_8UC3);
    cv::randu(img, cv::Scalar::all(0), cv::Scalar::all(256));
    cv::GaussianBlur(img, img, cv::Size(0, 0), 2.0);
    return img;
}

class EncodeChoiceTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        window_.prompts().setEncodingPrompt([this](const QString& path, const EncodeOptions& initial,
                                                   const QString& note) -> std::optional<EncodeOptions> {
            paths_ << path;
            initial_ = initial;
            note_ = note;
            if (!answer_) {
                return std::nullopt;
            }
            return (*answer_)(initial);
        });
    }
    QString file(const QString& name) const { return dir_.filePath(name); }

    QTemporaryDir dir_;
    QStringList paths_;
    EncodeOptions initial_;
    QString note_;
    std::optional<std::function<EncodeOptions(EncodeOptions)>> answer_ =
        std::function<EncodeOptions(EncodeOptions)>([](EncodeOptions o) { return o; });
};

TEST_F(EncodeChoiceTest, SavingAJpegStartsAtTheQualityItWasSavedAt)
{
    const QString photo = file(QStringLiteral("photo.jpg"));
    EncodeOptions q75;
    q75.jpegQuality = 75;
    tessera::app::writeImage(photo.toStdString(), picture(), nullptr, q75);
    controller_.openImage(photo);
    emit window_.saveRequested(photo);
    ASSERT_EQ(paths_.size(), 1) << "a plain Save of a JPEG asks: it re-encodes";
    EXPECT_EQ(initial_.jpegQuality, 75);
    EXPECT_TRUE(note_.contains(QStringLiteral("75"))) << note_.toStdString();
    EXPECT_EQ(tessera::app::jpegQualityOf(photo.toStdString()), 75);
    EXPECT_TRUE(window_.statusMessage().contains(QStringLiteral("JPEG quality 75")))
        << window_.statusMessage().toStdString();

    // The user's choice is what is written, and it is remembered.
    answer_ = [](EncodeOptions o) {
        o.jpegQuality = 40;
        return o;
    };
    emit window_.saveRequested(photo);
    EXPECT_EQ(tessera::app::jpegQualityOf(photo.toStdString()), 40);
    EXPECT_EQ(tessera::ui::rememberedEncodeOptions().jpegQuality, 40);

    // The file now stands at quality 40: the next Save starts there.
    answer_ = [](EncodeOptions o) { return o; };
    emit window_.saveRequested(photo);
    EXPECT_EQ(initial_.jpegQuality, 40);
    EXPECT_TRUE(note_.contains(QStringLiteral("40")));

    // The dialog as the user meets it, with the note; optionally pictured for the documentation.
    tessera::ui::EncodeOptionsDialog dialog(photo, initial_, note_, &window_);
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    EXPECT_EQ(dialog.findChild<QSpinBox*>(QStringLiteral("jpegQualitySpin"))->value(), 40);
    EXPECT_FALSE(dialog.findChild<QSpinBox*>(QStringLiteral("pngCompressionSpin"))->isVisible());
    const QByteArray shots = qgetenv("TESSERA_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
        dialog.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("encode-options-jpeg.png")));
    }
}

TEST_F(EncodeChoiceTest, ExportOffersTheLastChoicesAndWritesThem)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    window_.findChild<QAction*>(QStringLiteral("stackAdd_box"))->trigger();
    EXPECT_EQ(tessera::ui::rememberedEncodeOptions().jpegQuality, 92) << "fresh settings start at 92";
    answer_ = [](EncodeOptions o) {
        o.jpegQuality = 33;
        o.pngCompression = 9;
        return o;
    };
    const QString jpeg = file(QStringLiteral("out.jpg"));
    emit window_.exportRequested(jpeg);
    ASSERT_TRUE(waitForWholeResult());
    ASSERT_EQ(paths_.size(), 1);
    EXPECT_EQ(initial_.jpegQuality, 92);
    EXPECT_TRUE(note_.isEmpty());
    EXPECT_EQ(tessera::app::jpegQualityOf(jpeg.toStdString()), 33);
    EXPECT_TRUE(window_.statusMessage().contains(QStringLiteral("JPEG quality 33")));

    answer_ = [](EncodeOptions o) { return o; };
    emit window_.exportRequested(file(QStringLiteral("out.png")));
    ASSERT_TRUE(waitForWholeResult());
    ASSERT_EQ(paths_.size(), 2);
    EXPECT_EQ(initial_.jpegQuality, 33) << "the last choice is offered next time";
    EXPECT_EQ(initial_.pngCompression, 9);
    EXPECT_TRUE(window_.statusMessage().contains(QStringLiteral("PNG compression level 9")))
        << window_.statusMessage().toStdString();
}

TEST_F(EncodeChoiceTest, CancellingTheChoiceWritesNothing)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    answer_.reset();
    const QString out = file(QStringLiteral("none.tif"));
    emit window_.exportRequested(out);
    ASSERT_TRUE(waitForWholeResult());
    EXPECT_EQ(paths_.size(), 1);
    EXPECT_FALSE(QFile::exists(out));
    EXPECT_TRUE(window_.statusMessage().contains(QStringLiteral("Nothing exported")));
    emit window_.saveRequested(file(QStringLiteral("none.webp")));
    EXPECT_FALSE(QFile::exists(file(QStringLiteral("none.webp"))));
}

TEST_F(EncodeChoiceTest, APlainSaveOfALosslessFormatAsksNothing)
{
    const QString png = file(QStringLiteral("plain.png"));
    ASSERT_TRUE(QFile::copy(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"), png));
    controller_.openImage(png);
    emit window_.saveRequested(png);
    EXPECT_TRUE(paths_.isEmpty());
    EXPECT_TRUE(window_.statusMessage().contains(QStringLiteral("PNG compression level 6")))
        << window_.statusMessage().toStdString();
    // Save As another format asks.
    emit window_.saveRequested(file(QStringLiteral("plain.tif")));
    EXPECT_EQ(paths_.size(), 1);
}

TEST(EncodeChoiceBatch, TheBatchDialogOffersTheChosenFormatsChoices)
{
    QSettings().clear();
    tessera::ui::BatchDialog dialog;
    dialog.setInteractive(false);
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    auto* format = dialog.findChild<QComboBox*>(QStringLiteral("batchFormat"));
    auto* jpeg = dialog.findChild<QSpinBox*>(QStringLiteral("jpegQualitySpin"));
    auto* png = dialog.findChild<QSpinBox*>(QStringLiteral("pngCompressionSpin"));
    ASSERT_TRUE(format != nullptr && jpeg != nullptr && png != nullptr);
    format->setCurrentIndex(format->findData(QStringLiteral("")));
    EXPECT_TRUE(jpeg->isVisible() && png->isVisible()) << "outputs keeping their format: every choice";
    format->setCurrentIndex(format->findData(QStringLiteral("jpg")));
    EXPECT_TRUE(jpeg->isVisible());
    EXPECT_FALSE(png->isVisible());
    jpeg->setValue(55);
    EXPECT_EQ(dialog.request().encode.jpegQuality, 55);
    format->setCurrentIndex(format->findData(QStringLiteral("bmp")));
    EXPECT_FALSE(jpeg->isVisible());
    dialog.close();
    EXPECT_EQ(tessera::ui::rememberedEncodeOptions().jpegQuality, 55);
}

TEST(EncodeChoicePreferences, PreferencesHoldTheExportFormatQualityAndGpuMemory)
{
    QSettings().clear();
    auto* dialog = new tessera::ui::PreferencesDialog({});  // deletes itself when closed
    QSignalSpy memoryChanged(dialog, &tessera::ui::PreferencesDialog::gpuMemoryLimitChanged);
    auto* format = dialog->findChild<QComboBox*>(QStringLiteral("exportFormatCombo"));
    auto* memory = dialog->findChild<QSpinBox*>(QStringLiteral("gpuMemorySpin"));
    auto* jpeg = dialog->findChild<QSpinBox*>(QStringLiteral("jpegQualitySpin"));
    auto* png = dialog->findChild<QSpinBox*>(QStringLiteral("pngCompressionSpin"));
    ASSERT_TRUE(format != nullptr && memory != nullptr && jpeg != nullptr && png != nullptr);
    EXPECT_EQ(memory->value(), 0) << "automatic by default";
    EXPECT_EQ(jpeg->value(), 92);
    format->setCurrentIndex(format->findData(QStringLiteral("tif")));
    memory->setValue(2048);
    jpeg->setValue(80);
    png->setValue(1);
    dialog->accept();
    EXPECT_EQ(memoryChanged.count(), 1);
    EXPECT_EQ(tessera::ui::PreferencesDialog::exportFormat(), QStringLiteral("tif"));
    EXPECT_EQ(tessera::ui::PreferencesDialog::gpuMemoryLimit(), std::size_t{2048} << 20);
    EXPECT_EQ(tessera::ui::rememberedEncodeOptions().jpegQuality, 80);
    EXPECT_EQ(tessera::ui::rememberedEncodeOptions().pngCompression, 1);
}

}  // namespace
