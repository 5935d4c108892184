// SPDX-License-Identifier: Apache-2.0
#include "gui_test_support.h"

#include "app/document/document.h"
#include "app/gui/gui_controller.h"
#include "filters/registry.h"
#include "ui/filter_stack.h"
#include "ui/kernel_dock.h"
#include "ui/kernel_editor.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>

namespace {

using tessera::app::document::Document;

class DocumentViewsTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
        ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
        list_ = window_.findChild<QListWidget*>(QStringLiteral("stackList"));
        ASSERT_NE(list_, nullptr);
    }

    void trigger(const QString& action) { find<QAction>(action)->trigger(); }
    Document& document() { return controller_.document(); }
    double sizeIn(int entry)
    {
        return document().stack().entries.at(static_cast<size_t>(entry)).choice.values.get("size", 0.0);
    }

    QListWidget* list_ = nullptr;
};

TEST_F(DocumentViewsTest, WidgetEditsBecomeDocumentCommandsAndUndoMovesTheDocks)
{
    trigger(QStringLiteral("stackAdd_box"));
    auto* size = find<QSpinBox>(QStringLiteral("param_size_spin"));
    ASSERT_NE(size, nullptr);
    size->setValue(7);
    // The document holds what the widgets asked for, as named steps.
    ASSERT_EQ(document().stack().entries.size(), 1u);
    EXPECT_EQ(sizeIn(0), 7.0);
    ASSERT_EQ(document().undoStack().count(), 2);
    EXPECT_EQ(document().undoStack().text(0), QStringLiteral("Add Box blur"));
    EXPECT_EQ(&controller_.undoStack(), &document().undoStack());

    trigger(QStringLiteral("actionUndo"));
    EXPECT_EQ(sizeIn(0), 3.0);
    EXPECT_EQ(size->value(), 3);
    EXPECT_TRUE(list_->item(0)->text().contains(QStringLiteral("size 3"))) << list_->item(0)->text().toStdString();
    trigger(QStringLiteral("actionUndo"));
    EXPECT_TRUE(document().stack().entries.empty());
    EXPECT_EQ(list_->count(), 0);
    trigger(QStringLiteral("actionRedo"));
    trigger(QStringLiteral("actionRedo"));
    EXPECT_EQ(sizeIn(0), 7.0);
    EXPECT_EQ(list_->count(), 1);
    EXPECT_EQ(size->value(), 7);
}

TEST_F(DocumentViewsTest, DocumentChangesShowInTheDocksWhoeverMakesThem)
{
    document().addFilter(QStringLiteral("box"));
    document().addFilter(QStringLiteral("sharpen"));
    ASSERT_EQ(list_->count(), 2);
    EXPECT_EQ(list_->currentRow(), 1);
    auto* combo = find<QComboBox>(QStringLiteral("filterCombo"));
    EXPECT_EQ(combo->currentData().toString(), QStringLiteral("sharpen"));
    // Selecting in the list selects in the document, and the other way round.
    list_->setCurrentRow(0);
    EXPECT_EQ(document().stack().current, 0);
    EXPECT_EQ(combo->currentData().toString(), QStringLiteral("box"));
    document().select(1);
    EXPECT_EQ(list_->currentRow(), 1);
    EXPECT_EQ(combo->currentData().toString(), QStringLiteral("sharpen"));
    // A drag downwards is a move in the document; the list shows the document's order.
    list_->model()->moveRow(QModelIndex(), 0, QModelIndex(), 2);
    ASSERT_EQ(document().stack().entries.size(), 2u);
    EXPECT_EQ(document().stack().entries[0].choice.id, "sharpen");
    EXPECT_EQ(document().stack().entries[1].choice.id, "box");
    EXPECT_EQ(document().undoStack().text(document().undoStack().count() - 1), QStringLiteral("Move Box blur down"));
    EXPECT_TRUE(list_->item(1)->text().startsWith(QStringLiteral("Box blur")));
    EXPECT_EQ(list_->currentRow(), 1);
    // A widget that asks for nothing new leaves the history alone.
    const int steps = document().undoStack().count();
    window_.filterStack()->moveCurrent(1);
    EXPECT_EQ(document().undoStack().count(), steps);
}

TEST_F(DocumentViewsTest, APanelEditReachesTheDocumentOnceAndTheAnswerLeavesTheRowsAlone)
{
    trigger(QStringLiteral("stackAdd_gaussian"));
    const int steps = document().undoStack().count();
    auto* sigma = find<QDoubleSpinBox>(QStringLiteral("param_sigma_spin"));
    auto* slider = find<QSlider>(QStringLiteral("param_sigma_slider"));
    ASSERT_NE(sigma, nullptr);
    ASSERT_NE(slider, nullptr);
    const double before = sigma->value();
    int stackSignals = 0;
    QObject::connect(&document(), &Document::stackChanged, [&stackSignals] { ++stackSignals; });
    // A slider position whose value the spin box rounds: the document's answer must not move
    // the slider to the rounded value's position, nor rebuild the row under the user's hands.
    const int position = slider->maximum() / 3 + 1;
    slider->setValue(position);
    EXPECT_EQ(stackSignals, 1);
    ASSERT_EQ(document().undoStack().count(), steps + 1);
    EXPECT_EQ(document().stack().currentEntry()->choice.values.get("sigma", 0.0), sigma->value());
    EXPECT_EQ(slider->value(), position);
    EXPECT_EQ(find<QDoubleSpinBox>(QStringLiteral("param_sigma_spin")), sigma);

    trigger(QStringLiteral("actionUndo"));
    EXPECT_EQ(document().undoStack().index(), steps);
    EXPECT_EQ(sigma->value(), before);
    EXPECT_EQ(find<QDoubleSpinBox>(QStringLiteral("param_sigma_spin")), sigma);
    trigger(QStringLiteral("actionRedo"));
    EXPECT_EQ(slider->value(), position);
}

TEST_F(DocumentViewsTest, TypingAKernelKeepsTheFieldAsTyped)
{
    trigger(QStringLiteral("stackAdd_custom"));
    auto* edit = find<QLineEdit>(QStringLiteral("kernelEdit"));
    ASSERT_NE(edit, nullptr);
    const int steps = document().undoStack().count();
    // Text that the panel would write differently ("1" rather than "1.0"): the document's
    // answer to each keystroke leaves the text and the cursor where the user has them.
    edit->setFocus();
    edit->setText(QStringLiteral("0, 1.0, 0"));
    edit->setCursorPosition(4);
    EXPECT_EQ(document().undoStack().count(), steps + 1);
    const tessera::filters::Kernel2D row{3, 1, {0, 1, 0}};
    EXPECT_EQ(document().stack().currentEntry()->choice.values.kernel, row);
    EXPECT_EQ(edit->text(), QStringLiteral("0, 1.0, 0"));
    EXPECT_EQ(edit->cursorPosition(), 4);
    trigger(QStringLiteral("actionUndo"));
    EXPECT_NE(edit->text(), QStringLiteral("0, 1.0, 0"));
    EXPECT_EQ(document().undoStack().index(), steps);
}

TEST_F(DocumentViewsTest, KernelPresetRoundTripsThroughTheDocument)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    tessera::ui::KernelEditor* editor = window_.kernelDock()->editor();
    const tessera::filters::Kernel2D kernel{3, 3, {0, -1, 0, -1, 5, -1, 0, -1, 0}};
    editor->setKernel(kernel);
    editor->setScaleOffset(0.5, 3.0);
    const QString path = dir.filePath(QStringLiteral("sharp.json"));
    emit editor->savePresetRequested(path);
    ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
    EXPECT_TRUE(editor->message().contains(QStringLiteral("sharp.json")));

    editor->setKernel(tessera::filters::Kernel2D{1, 1, {1}});
    emit editor->loadPresetRequested(path);
    // Loading is an edit of the stack: a custom entry with the file's kernel, scale and offset.
    const tessera::filters::StackEntry* entry = document().stack().currentEntry();
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry->choice.id, "custom");
    EXPECT_EQ(entry->choice.values.kernel, kernel);
    EXPECT_EQ(entry->scale, 0.5);
    EXPECT_EQ(entry->offset, 3.0);
    EXPECT_EQ(editor->kernel(), kernel);
    trigger(QStringLiteral("actionUndo"));
    EXPECT_TRUE(document().stack().entries.empty());

    emit editor->loadPresetRequested(dir.filePath(QStringLiteral("missing.json")));
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("missing.json"))) << window_.lastError().toStdString();
    EXPECT_TRUE(document().stack().entries.empty());
}

}  // namespace
