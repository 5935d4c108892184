// SPDX-License-Identifier: Apache-2.0
#include "gui_test_support.h"

#include "app/gui/gui_controller.h"
#include "filters/cpu_executor.h"
#include "filters/registry.h"
#include "ui/filter_panel.h"
#include "ui/filter_stack.h"
#include "ui/image_view.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QAbstractItemModel>
#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QSpinBox>
#include <QToolButton>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <string>

namespace {

using tessera::filters::FilterChain;
using tessera::filters::FilterSpec;
using tessera::test::waitForPreviewOf;

FilterSpec box(int size)
{
    tessera::filters::ParamValues values;
    values.values["size"] = size;
    return tessera::filters::builtinRegistry().get("box").build(values);
}

FilterSpec gaussian()
{
    return tessera::filters::builtinRegistry().get("gaussian").build({});
}

QString tempPath(const QString& name)
{
    return tessera::test::tempPath(QStringLiteral("stack"), name);
}

class FilterStackTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
        ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
        original_ = controller_.sourceImage().clone();
        list_ = find<QListWidget>("stackList");
        ASSERT_NE(list_, nullptr);
    }

    void add(const char* id) { find<QAction>(QStringLiteral("stackAdd_") + QLatin1String(id))->trigger(); }
    void click(const char* button) { find<QToolButton>(QLatin1String(button))->click(); }
    void undo() { find<QAction>(QStringLiteral("actionUndo"))->trigger(); }
    void redo() { find<QAction>(QStringLiteral("actionRedo"))->trigger(); }
    QSpinBox* sizeSpin() { return find<QSpinBox>(QStringLiteral("param_size_spin")); }

    /// Box 5 then the default Gaussian, added through the stack's Add menu and the panel.
    void buildBoxThenGaussian()
    {
        add("box");
        ASSERT_NE(sizeSpin(), nullptr);
        sizeSpin()->setValue(5);
        add("gaussian");
        ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{box(5), gaussian()}}));
    }

    /// On the CPU path the preview is the CPU result exactly.
    void expectPreviewExactOnCpu(const FilterChain& chain)
    {
        if (window_.previewStatus().startsWith(QStringLiteral("Preview: CPU"))) {
            const cv::Mat want = tessera::filters::applyCpu(original_, chain);
            EXPECT_EQ(cv::norm(controller_.previewData(), want, cv::NORM_INF), 0.0);
        }
    }

    cv::Mat original_;
    QListWidget* list_ = nullptr;
};

TEST_F(FilterStackTest, TwoFiltersPreviewAsTheirChainOnTheCpuPath)
{
    buildBoxThenGaussian();
    expectPreviewExactOnCpu(FilterChain{{box(5), gaussian()}});
    ASSERT_EQ(list_->count(), 2);
    EXPECT_EQ(list_->currentRow(), 1);
    EXPECT_TRUE(list_->item(0)->text().startsWith(QStringLiteral("Box blur"))) << list_->item(0)->text().toStdString();
    auto* combo = find<QComboBox>(QStringLiteral("filterCombo"));
    EXPECT_EQ(combo->currentData().toString(), QStringLiteral("gaussian"));
    // Selecting the first entry shows its parameters in the panel.
    list_->setCurrentRow(0);
    EXPECT_EQ(combo->currentData().toString(), QStringLiteral("box"));
    EXPECT_EQ(sizeSpin()->value(), 5);
    EXPECT_TRUE(find<QToolButton>(QStringLiteral("stackDownButton"))->isEnabled());
    EXPECT_FALSE(find<QToolButton>(QStringLiteral("stackUpButton"))->isEnabled());
}

TEST_F(FilterStackTest, DisablingAnEntryPreviewsTheOtherAlone)
{
    buildBoxThenGaussian();
    list_->item(0)->setCheckState(Qt::Unchecked);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{gaussian()}}));
    expectPreviewExactOnCpu(FilterChain{{gaussian()}});
    undo();
    EXPECT_EQ(list_->item(0)->checkState(), Qt::Checked);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{box(5), gaussian()}}));
    redo();
    EXPECT_EQ(list_->item(0)->checkState(), Qt::Unchecked);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{gaussian()}}));
    // With nothing enabled the image itself is shown, and Apply has nothing to do.
    list_->item(1)->setCheckState(Qt::Unchecked);
    EXPECT_TRUE(controller_.previewData().empty());
    EXPECT_EQ(window_.imageView()->imageSize(), QSize(600, 400));
    find<QAction>(QStringLiteral("actionApply"))->trigger();
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("Nothing to apply")));
}

TEST_F(FilterStackTest, MovingAnEntryReordersTheChain)
{
    buildBoxThenGaussian();
    click("stackUpButton");  // the Gaussian, selected since it was added, goes first
    EXPECT_EQ(list_->currentRow(), 0);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{gaussian(), box(5)}}));
    expectPreviewExactOnCpu(FilterChain{{gaussian(), box(5)}});
    undo();
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{box(5), gaussian()}}));
    redo();
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{gaussian(), box(5)}}));
    // A drag in the list moves a row of its model the same way.
    list_->model()->moveRow(QModelIndex(), 1, QModelIndex(), 0);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{box(5), gaussian()}}));
    EXPECT_TRUE(list_->item(0)->text().startsWith(QStringLiteral("Box blur")));
    undo();
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{gaussian(), box(5)}}));
}

TEST_F(FilterStackTest, RemovingEntries)
{
    buildBoxThenGaussian();
    list_->setCurrentRow(0);
    click("stackRemoveButton");
    ASSERT_EQ(list_->count(), 1);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{gaussian()}}));
    undo();
    ASSERT_EQ(list_->count(), 2);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{box(5), gaussian()}}));
    redo();
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{gaussian()}}));
    click("stackRemoveButton");
    EXPECT_EQ(list_->count(), 0);
    EXPECT_TRUE(controller_.previewData().empty());
    EXPECT_FALSE(find<QToolButton>(QStringLiteral("stackRemoveButton"))->isEnabled());
}

TEST_F(FilterStackTest, ASliderDragIsOneUndoStep)
{
    add("box");
    const int steps = controller_.undoStack().count();
    for (int size : {5, 7, 9, 11}) {
        sizeSpin()->setValue(size);
    }
    EXPECT_EQ(controller_.undoStack().count(), steps + 1);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{box(11)}}));
    undo();
    EXPECT_EQ(sizeSpin()->value(), 3);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{box(3)}}));
}

TEST_F(FilterStackTest, EditingThePanelOfAnEmptyStackStartsOne)
{
    auto* combo = find<QComboBox>(QStringLiteral("filterCombo"));
    combo->setCurrentIndex(combo->findData(QStringLiteral("box")));
    ASSERT_EQ(list_->count(), 1);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{box(3)}}));
    // Changing the filter of the selected entry replaces it, one undo step.
    combo->setCurrentIndex(combo->findData(QStringLiteral("gaussian")));
    ASSERT_EQ(list_->count(), 1);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{gaussian()}}));
    undo();
    EXPECT_EQ(combo->currentData().toString(), QStringLiteral("box"));
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{box(3)}}));
}

TEST_F(FilterStackTest, ApplyEmptiesTheStackThenSaveAndReload)
{
    buildBoxThenGaussian();
    const cv::Mat want = tessera::filters::applyCpu(original_, FilterChain{{box(5), gaussian()}});
    find<QAction>(QStringLiteral("actionApply"))->trigger();
    EXPECT_LE(cv::norm(controller_.sourceImage(), want, cv::NORM_INF), 1.0);
    EXPECT_EQ(list_->count(), 0);
    EXPECT_TRUE(controller_.previewData().empty());
    EXPECT_TRUE(window_.isWindowModified());

    const QString out = tempPath(QStringLiteral("applied.png"));
    emit window_.saveRequested(out);
    EXPECT_FALSE(window_.isWindowModified()) << window_.lastError().toStdString();
    const cv::Mat reloaded = cv::imread(out.toStdString(), cv::IMREAD_UNCHANGED);
    QFile::remove(out);
    ASSERT_FALSE(reloaded.empty());
    EXPECT_EQ(cv::norm(reloaded, controller_.sourceImage(), cv::NORM_INF), 0.0);

    // Undo brings back the image and the stack that was applied.
    undo();
    EXPECT_EQ(cv::norm(controller_.sourceImage(), original_, cv::NORM_INF), 0.0);
    ASSERT_EQ(list_->count(), 2);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{box(5), gaussian()}}));
    redo();
    EXPECT_EQ(list_->count(), 0);
    EXPECT_LE(cv::norm(controller_.sourceImage(), want, cv::NORM_INF), 1.0);
}

TEST_F(FilterStackTest, ExportWritesTheResultAndLeavesTheDocumentAlone)
{
    buildBoxThenGaussian();
    const QString path = window_.currentPath();
    const QString out = tempPath(QStringLiteral("export.tif"));
    emit window_.exportRequested(out);
    EXPECT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
    const cv::Mat written = cv::imread(out.toStdString(), cv::IMREAD_UNCHANGED);
    QFile::remove(out);
    ASSERT_FALSE(written.empty());
    EXPECT_EQ(cv::norm(written, controller_.previewData(), cv::NORM_INF), 0.0);
    EXPECT_EQ(window_.currentPath(), path);
    EXPECT_FALSE(window_.isWindowModified());
    EXPECT_EQ(cv::norm(controller_.sourceImage(), original_, cv::NORM_INF), 0.0);
}

TEST_F(FilterStackTest, ExportKeepsSixteenBitsAndRefusesThemInJpeg)
{
    add("box");
    auto* depth = find<QComboBox>(QStringLiteral("depthCombo"));
    depth->setCurrentIndex(depth->findData(QStringLiteral("u16")));
    FilterSpec wide = box(3);
    wide.depth = tessera::filters::OutputDepth::U16;
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{wide}}));

    const QString png = tempPath(QStringLiteral("export16.png"));
    emit window_.exportRequested(png);
    const cv::Mat written = cv::imread(png.toStdString(), cv::IMREAD_UNCHANGED);
    QFile::remove(png);
    ASSERT_EQ(written.depth(), CV_16U);
    EXPECT_EQ(cv::norm(written, controller_.previewData(), cv::NORM_INF), 0.0);

    const QString jpeg = tempPath(QStringLiteral("export16.jpg"));
    emit window_.exportRequested(jpeg);
    EXPECT_FALSE(QFile::exists(jpeg));
    EXPECT_TRUE(window_.lastError().contains(jpeg)) << window_.lastError().toStdString();
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("JPEG cannot hold u16")))
        << window_.lastError().toStdString();
}

TEST_F(FilterStackTest, PresetRoundTripKeepsTheEnabledFilters)
{
    buildBoxThenGaussian();
    add("sharpen");
    list_->item(2)->setCheckState(Qt::Unchecked);
    const tessera::filters::StackState saved = window_.filterStack()->state();
    const QString file = tempPath(QStringLiteral("preset.json"));
    emit window_.savePresetRequested(file);
    ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();

    list_->setCurrentRow(0);
    click("stackRemoveButton");
    emit window_.loadPresetRequested(file);
    QFile::remove(file);
    ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
    ASSERT_EQ(list_->count(), 2);  // the disabled sharpen is not part of the preset
    EXPECT_EQ(window_.filterStack()->state().entries[0], saved.entries[0]);
    EXPECT_EQ(window_.filterStack()->state().entries[1], saved.entries[1]);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{box(5), gaussian()}}));
    undo();  // loading is one step: the Gaussian and the disabled sharpen are back
    ASSERT_EQ(list_->count(), 2);
    EXPECT_EQ(window_.filterStack()->state().entries[0], saved.entries[1]);
    EXPECT_EQ(window_.filterStack()->state().entries[1], saved.entries[2]);
}

TEST_F(FilterStackTest, PresetErrorsNameTheFile)
{
    const QString file = tempPath(QStringLiteral("broken.json"));
    QFile broken(file);
    ASSERT_TRUE(broken.open(QIODevice::WriteOnly));
    broken.write("{\"filters\": [{\"id\": \"no_such_filter\"}]}");
    broken.close();
    emit window_.loadPresetRequested(file);
    QFile::remove(file);
    EXPECT_TRUE(window_.lastError().contains(file)) << window_.lastError().toStdString();
    EXPECT_EQ(list_->count(), 0);
    const QString missing = tempPath(QStringLiteral("missing.json"));
    emit window_.loadPresetRequested(missing);
    EXPECT_TRUE(window_.lastError().contains(missing)) << window_.lastError().toStdString();
}

}  // namespace
