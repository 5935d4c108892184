// SPDX-License-Identifier: Apache-2.0
#include "gui_test_support.h"

#include "app/gui/gui_controller.h"
#include "app/document/stack_chain.h"
#include "filters/registry.h"
#include "ui/filter_stack.h"
#include "ui/kernel_dock.h"
#include "ui/kernel_editor.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>

namespace {

using tessera::filters::FilterChain;
using tessera::filters::Kernel2D;
using tessera::filters::ParamValues;
using tessera::test::waitForPreviewOf;

/// The custom filter as the CPU path runs it, for kernel (anchor at the centre).
tessera::filters::FilterSpec custom(const Kernel2D& kernel)
{
    ParamValues values;
    values.kernel = kernel;
    return tessera::filters::builtinRegistry().get("custom").build(values);
}

class KernelDockTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
        editor_ = window_.kernelDock()->editor();
        grid_ = editor_->findChild<QTableView*>(QStringLiteral("kernelGrid"));
        ASSERT_NE(grid_, nullptr);
    }

    void add(const char* id)
    {
        window_.findChild<QAction*>(QStringLiteral("stackAdd_") + QLatin1String(id))->trigger();
    }
    void undo() { window_.findChild<QAction*>(QStringLiteral("actionUndo"))->trigger(); }
    void redo() { window_.findChild<QAction*>(QStringLiteral("actionRedo"))->trigger(); }
    /// Types text into kernel cell (x, y) as the grid's editor would.
    bool typeWeight(int x, int y, const char* text)
    {
        return grid_->model()->setData(grid_->model()->index(y, x), QString::fromLatin1(text), Qt::EditRole);
    }
    /// What the stack now stands for, on the CPU path.
    FilterChain stackChain() const
    {
        return tessera::app::buildChain(window_.filterStack()->state(), tessera::filters::builtinRegistry());
    }

    tessera::ui::KernelEditor* editor_ = nullptr;
    QTableView* grid_ = nullptr;
};

TEST_F(KernelDockTest, AKernelEditReachesThePreview)
{
    add("custom");
    EXPECT_FALSE(editor_->isReadOnly());
    const Kernel2D identity{3, 3, {0, 0, 0, 0, 1, 0, 0, 0, 0}};
    EXPECT_EQ(editor_->kernel(), identity);
    ASSERT_TRUE(typeWeight(0, 1, "-0.25"));
    ASSERT_TRUE(typeWeight(2, 1, "0.25"));
    const Kernel2D edited{3, 3, {0, 0, 0, -0.25, 1, 0.25, 0, 0, 0}};
    EXPECT_EQ(window_.filterStack()->currentEntry()->choice.values.kernel, edited);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{custom(edited)}}));
    if (window_.previewStatus().startsWith(QStringLiteral("Preview: CPU"))) {
        const cv::Mat want = tessera::filters::applyCpu(controller_.sourceImage(), FilterChain{{custom(edited)}});
        EXPECT_EQ(cv::norm(controller_.previewData(), want, cv::NORM_INF), 0.0);
    }
    // The panel's kernel field follows, so a later panel edit keeps the kernel.
    EXPECT_EQ(window_.findChild<QLineEdit*>(QStringLiteral("kernelEdit"))->text(),
              QStringLiteral("0,0,0;-0.25,1,0.25;0,0,0"));

    // Both cell edits came within a second: one undo step back to the identity.
    undo();
    EXPECT_EQ(editor_->kernel(), identity);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{custom(identity)}}));
    redo();
    EXPECT_EQ(editor_->kernel(), edited);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{custom(edited)}}));
}

TEST_F(KernelDockTest, AnAnchorFromTheEditorReachesThePreview)
{
    add("custom");
    const Kernel2D kernel{3, 3, {1, 2, 1, 2, 4, 2, 1, 2, 1}};
    // As the editor reports a Ctrl+click on cell (0, 2) after the weights were typed.
    emit editor_->kernelEdited(kernel, tessera::filters::Point{0, 2});
    EXPECT_EQ(window_.filterStack()->currentEntry()->choice.values.anchor, (tessera::filters::Point{0, 2}));
    tessera::filters::FilterSpec anchored = custom(kernel);
    anchored.anchor = tessera::filters::Point{0, 2};
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{anchored}}));
    // A panel edit that keeps the kernel's size keeps the anchor.
    window_.findChild<QLineEdit*>(QStringLiteral("kernelEdit"))->setText(QStringLiteral("1,2,1;2,5,2;1,2,1"));
    EXPECT_EQ(window_.filterStack()->currentEntry()->choice.values.anchor, (tessera::filters::Point{0, 2}));
}

TEST_F(KernelDockTest, ScaleAndOffsetFromTheEditorReachThePreview)
{
    add("custom");
    editor_->findChild<QDoubleSpinBox*>(QStringLiteral("offsetSpin"))->setValue(40.0);
    EXPECT_EQ(window_.filterStack()->currentEntry()->offset, 40.0);
    tessera::filters::FilterSpec brighter = custom(Kernel2D{3, 3, {0, 0, 0, 0, 1, 0, 0, 0, 0}});
    brighter.offset = 40.0;
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{brighter}}));
}

TEST_F(KernelDockTest, BuiltInFiltersShowTheirKernelReadOnly)
{
    add("box");
    EXPECT_TRUE(editor_->isReadOnly());
    EXPECT_TRUE(
        editor_->findChild<QLabel*>(QStringLiteral("kernelTitle"))->text().contains(QStringLiteral("Box blur")));
    EXPECT_EQ(editor_->kernel().width, 3);
    window_.findChild<QSpinBox*>(QStringLiteral("param_size_spin"))->setValue(5);
    EXPECT_EQ(editor_->kernel().width, 5);
    EXPECT_FALSE(typeWeight(1, 1, "7"));  // read-only

    // Copy to custom turns the entry into a custom kernel in its place: same pixels.
    editor_->findChild<QPushButton*>(QStringLiteral("copyToCustomButton"))->click();
    ASSERT_EQ(window_.filterStack()->state().entries.size(), 1u);
    EXPECT_EQ(window_.filterStack()->currentEntry()->choice.id, "custom");
    EXPECT_FALSE(editor_->isReadOnly());
    ASSERT_TRUE(waitForPreviewOf(controller_, stackChain()));
    undo();
    EXPECT_EQ(window_.filterStack()->currentEntry()->choice.id, "box");
    EXPECT_TRUE(editor_->isReadOnly());
}

TEST_F(KernelDockTest, EditingTheKernelWithAnEmptyStackStartsOne)
{
    ASSERT_TRUE(window_.filterStack()->state().entries.empty());
    ASSERT_TRUE(typeWeight(1, 1, "2"));
    ASSERT_EQ(window_.filterStack()->state().entries.size(), 1u);
    const Kernel2D doubled{3, 3, {0, 0, 0, 0, 2, 0, 0, 0, 0}};
    EXPECT_EQ(window_.filterStack()->currentEntry()->choice.values.kernel, doubled);
    ASSERT_TRUE(waitForPreviewOf(controller_, FilterChain{{custom(doubled)}}));
}

}  // namespace
