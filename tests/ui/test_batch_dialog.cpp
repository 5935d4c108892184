// SPDX-License-Identifier: Apache-2.0
#include "app/gui/batch_controller.h"
#include "app/devices/device_scheduler.h"
#include "app/io/image_io.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "ui/batch_dialog.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <opencv2/core.hpp>

#include <random>

namespace tessera::test {
namespace {

filters::FilterChain boxChain()
{
    return {{filters::makeBox(3)}};
}

class BatchDialogTest : public testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        seed_ = std::random_device{}();
        cv::RNG rng(seed_);
        ASSERT_TRUE(QDir().mkpath(in()));
        for (int i = 0; i < 5; ++i) {
            cv::Mat img(11 + i, 17, i % 2 == 0 ? CV_8UC3 : CV_16UC1);
            rng.fill(img, cv::RNG::UNIFORM, 0, i % 2 == 0 ? 256 : 65536);
            app::writeImage(QDir(in()).filePath(QStringLiteral("pic%1.png").arg(i)).toStdString(), img);
        }
        QFile bad(QDir(in()).filePath(QStringLiteral("broken.png")));
        ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
        bad.write("not a picture");
        bad.close();
        dialog_.setInteractive(false);
        dialog_.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog_));
    }

    template <typename T>
    T* child(const char* name)
    {
        T* w = dialog_.findChild<T*>(QString::fromLatin1(name));
        EXPECT_NE(w, nullptr) << name;
        return w;
    }

    QString in() const { return dir_.filePath(QStringLiteral("in")); }
    QString out() const { return dir_.filePath(QStringLiteral("out")); }

    unsigned seed_ = 0;
    QTemporaryDir dir_;
    ui::BatchDialog dialog_;
    app::DeviceScheduler scheduler_;
    app::BatchController controller_{dialog_, scheduler_, [] { return boxChain(); }};
};

TEST_F(BatchDialogTest, RunsABatchAndListsEveryFile)
{
    SCOPED_TRACE("seed " + std::to_string(seed_));
    dialog_.addInputs({in()});
    child<QLineEdit>("batchOutputFolder")->setText(out());
    child<QLineEdit>("batchTemplate")->setText(QStringLiteral("{stem}-{filter}"));
    auto* device = child<QComboBox>("batchDevice");
    device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
    EXPECT_EQ(child<QLabel>("batchExample")->text(), QStringLiteral("broken-box.png"));
    EXPECT_TRUE(child<QAbstractButton>("batchUseStack")->text().contains(QStringLiteral("box")));

    QSignalSpy finished(&controller_, &app::BatchController::finished);
    QTest::mouseClick(child<QPushButton>("batchStart"), Qt::LeftButton);
    ASSERT_TRUE(finished.count() == 1 || finished.wait(20000));

    auto* table = child<QTableWidget>("batchResults");
    ASSERT_EQ(table->rowCount(), 6);
    int ok = 0;
    for (int r = 0; r < table->rowCount(); ++r) {
        const QString file = table->item(r, 0)->data(Qt::UserRole).toString();
        const QString status = table->item(r, 1)->text();
        if (file.endsWith(QStringLiteral("broken.png"))) {
            EXPECT_EQ(status, QStringLiteral("failed"));
            EXPECT_TRUE(table->item(r, 5)->text().contains(file));
            continue;
        }
        ++ok;
        EXPECT_EQ(status, QStringLiteral("ok"));
        EXPECT_EQ(table->item(r, 2)->text(), QStringLiteral("CPU"));
        EXPECT_EQ(table->item(r, 2)->toolTip(), QStringLiteral("CPU; read by libpng"));
        const QString output = table->item(r, 4)->data(Qt::UserRole).toString();
        const cv::Mat want = filters::applyCpu(app::readImage(file.toStdString()), boxChain());
        const cv::Mat got = app::readImage(output.toStdString());
        ASSERT_EQ(got.type(), want.type());
        EXPECT_EQ(cv::norm(got, want, cv::NORM_INF), 0.0) << output.toStdString();
    }
    EXPECT_EQ(ok, 5);
    EXPECT_EQ(child<QProgressBar>("batchOverallProgress")->value(), 6);
    EXPECT_TRUE(child<QLabel>("batchSummary")->text().contains(QStringLiteral("5 written")));
    EXPECT_TRUE(child<QPushButton>("batchStart")->isEnabled());
    EXPECT_FALSE(child<QPushButton>("batchCancel")->isEnabled());
    EXPECT_TRUE(child<QPushButton>("batchSaveCsv")->isEnabled());
    EXPECT_EQ(controller_.lastSummary().failed, 1);

    // Optional: a picture of the dialog after a run, for the documentation.
    const QByteArray shots = qgetenv("TESSERA_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
        dialog_.resize(1000, 720);
        QTest::qWait(50);
        dialog_.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("batch-dialog-cpu.png")));
    }
}

// While a calibration holds the CPU, the batch's files wait and the dialog says why; then every
// file is written as before.
TEST_F(BatchDialogTest, WaitsWhileACalibrationHoldsTheDeviceAndSaysSo)
{
    dialog_.addInputs({in()});
    child<QLineEdit>("batchOutputFolder")->setText(out());
    auto* device = child<QComboBox>("batchDevice");
    device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
    app::DeviceLease calibration =
        scheduler_.acquire({{values::DeviceId::cpu()}, app::LeaseKind::Exclusive, 0, "calibration"});
    QSignalSpy finished(&controller_, &app::BatchController::finished);
    QTest::mouseClick(child<QPushButton>("batchStart"), Qt::LeftButton);
    auto* summary = child<QLabel>("batchSummary");
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return summary->text() == QStringLiteral("waiting for CPU (calibration running)"); }, 5000))
        << summary->text().toStdString();
    EXPECT_TRUE(controller_.isRunning());
    // Only the file that cannot be decoded is done: it needed no device.
    auto* table = child<QTableWidget>("batchResults");
    for (int r = 0; r < table->rowCount(); ++r) {
        EXPECT_EQ(table->item(r, 1)->text(), QStringLiteral("failed"));
    }
    calibration.release();
    ASSERT_TRUE(finished.count() == 1 || finished.wait(20000));
    EXPECT_EQ(controller_.lastSummary().ok, 5);
    EXPECT_TRUE(summary->text().contains(QStringLiteral("5 written")));
}

TEST_F(BatchDialogTest, RefusalIsShownAndNothingRuns)
{
    dialog_.addInputs({in()});
    child<QLineEdit>("batchOutputFolder")->setText(in());
    child<QLineEdit>("batchTemplate")->setText(QStringLiteral("{stem}"));
    QSignalSpy finished(&controller_, &app::BatchController::finished);
    child<QPushButton>("batchStart")->click();
    EXPECT_EQ(finished.count(), 1);
    EXPECT_TRUE(child<QLabel>("batchSummary")->text().contains(QStringLiteral("would replace the input")));
    // The table says why as well: one row for the listed folder, refused, with the reason.
    auto* table = child<QTableWidget>("batchResults");
    ASSERT_EQ(table->rowCount(), 1);
    EXPECT_EQ(table->item(0, 1)->text(), QStringLiteral("refused"));
    EXPECT_TRUE(table->item(0, 5)->text().contains(QStringLiteral("would replace the input")));
    EXPECT_EQ(controller_.lastSummary().files.size(), 0u);
}

TEST_F(BatchDialogTest, AFormatThatCannotHoldTheDepthIsRefusedBeforeAnythingIsWritten)
{
    dialog_.addInputs(
        {QDir(in()).filePath(QStringLiteral("pic0.png")), QDir(in()).filePath(QStringLiteral("pic1.png"))});
    child<QLineEdit>("batchOutputFolder")->setText(out());
    auto* format = child<QComboBox>("batchFormat");
    format->setCurrentIndex(format->findData(QStringLiteral("jpg")));
    auto* depth = child<QComboBox>("batchDepth");
    depth->setCurrentIndex(depth->findData(QStringLiteral("f32")));
    QSignalSpy finished(&controller_, &app::BatchController::finished);
    child<QPushButton>("batchStart")->click();
    ASSERT_EQ(finished.count(), 1);  // at once: nothing was started
    const QString summary = child<QLabel>("batchSummary")->text();
    EXPECT_TRUE(summary.startsWith(QStringLiteral("Not started"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("JPEG cannot hold f32"))) << summary.toStdString();
    auto* table = child<QTableWidget>("batchResults");
    ASSERT_EQ(table->rowCount(), 2);
    for (int r = 0; r < 2; ++r) {
        EXPECT_EQ(table->item(r, 1)->text(), QStringLiteral("refused"));
        EXPECT_TRUE(table->item(r, 5)->text().contains(QStringLiteral("JPEG cannot hold f32")))
            << table->item(r, 5)->text().toStdString();
    }
    EXPECT_TRUE(child<QPushButton>("batchStart")->isEnabled());
    EXPECT_FALSE(QDir(out()).exists() && !QDir(out()).isEmpty());

    // With 8 bits the same set-up runs, and the refusal rows give way to the files' rows.
    depth->setCurrentIndex(depth->findData(QStringLiteral("u8")));
    auto* device = child<QComboBox>("batchDevice");
    device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
    child<QPushButton>("batchStart")->click();
    ASSERT_TRUE(finished.count() == 2 || finished.wait(20000));
    ASSERT_EQ(table->rowCount(), 2);
    for (int r = 0; r < 2; ++r) {
        EXPECT_EQ(table->item(r, 1)->text(), QStringLiteral("ok")) << table->item(r, 5)->text().toStdString();
    }
}

TEST_F(BatchDialogTest, AKeptSixteenBitDepthBoundForJpegIsRefusedWithTheFilesNamed)
{
    // pic1 and pic3 are 16-bit PNGs; kept at their depth they cannot become JPEGs.
    dialog_.addInputs({in()});
    child<QLineEdit>("batchOutputFolder")->setText(out());
    auto* format = child<QComboBox>("batchFormat");
    format->setCurrentIndex(format->findData(QStringLiteral("jpg")));
    auto* depth = child<QComboBox>("batchDepth");
    depth->setCurrentIndex(depth->findData(QStringLiteral("keep")));
    QSignalSpy finished(&controller_, &app::BatchController::finished);
    child<QPushButton>("batchStart")->click();
    ASSERT_EQ(finished.count(), 1);
    auto* table = child<QTableWidget>("batchResults");
    ASSERT_EQ(table->rowCount(), 1);
    EXPECT_EQ(table->item(0, 1)->text(), QStringLiteral("refused"));
    const QString why = table->item(0, 5)->text();
    EXPECT_TRUE(why.contains(QStringLiteral("JPEG cannot hold u16"))) << why.toStdString();
    EXPECT_TRUE(why.contains(QStringLiteral("pic1.png (u16)"))) << why.toStdString();
    EXPECT_TRUE(why.contains(QStringLiteral("pic3.png (u16)"))) << why.toStdString();
    EXPECT_FALSE(QDir(out()).exists() && !QDir(out()).isEmpty());
}

TEST_F(BatchDialogTest, DevicesUseTheWordsOfPreferences)
{
    auto* device = child<QComboBox>("batchDevice");
    ASSERT_GE(device->count(), 2);
    EXPECT_EQ(device->itemText(0), QStringLiteral("Auto (every GPU, else the CPU)"));
    EXPECT_EQ(device->itemText(0), ui::PreferencesDialog::basicDeviceOptions().front().label);
}

TEST_F(BatchDialogTest, GpuJpegDecodingNeedsAGpuDeviceAndIsRemembered)
{
    auto* device = child<QComboBox>("batchDevice");
    auto* jpeg = child<QCheckBox>("batchJpegOnGpu");
    EXPECT_FALSE(jpeg->isChecked());  // off unless asked for
    jpeg->setChecked(true);
    device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
    EXPECT_FALSE(jpeg->isEnabled());
    EXPECT_FALSE(dialog_.request().jpegOnGpu);  // a CPU batch decodes on the CPU whatever the box says
    device->setCurrentIndex(device->findData(QStringLiteral("auto")));
    EXPECT_TRUE(jpeg->isEnabled());
    EXPECT_TRUE(dialog_.request().jpegOnGpu);
    dialog_.close();
    ui::BatchDialog again;
    EXPECT_TRUE(again.request().jpegOnGpu);
    EXPECT_EQ(again.request().device, QStringLiteral("auto"));
}

TEST_F(BatchDialogTest, BadTemplateShowsWhyAndChoicesAreRemembered)
{
    child<QLineEdit>("batchTemplate")->setText(QStringLiteral("{nope}"));
    EXPECT_TRUE(child<QLabel>("batchExample")->text().contains(QStringLiteral("unknown field")));
    child<QLineEdit>("batchTemplate")->setText(QStringLiteral("{stem}_{index}"));
    child<QLineEdit>("batchOutputFolder")->setText(out());
    auto* policy = child<QComboBox>("batchPolicy");
    policy->setCurrentIndex(policy->findData(QStringLiteral("rename")));
    dialog_.close();
    ui::BatchDialog again;
    EXPECT_EQ(again.request().nameTemplate, QStringLiteral("{stem}_{index}"));
    EXPECT_EQ(again.request().outputDir, out());
    EXPECT_EQ(again.request().policy, QStringLiteral("rename"));
}

}  // namespace
}  // namespace tessera::test
