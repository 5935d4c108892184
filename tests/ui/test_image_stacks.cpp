// SPDX-License-Identifier: Apache-2.0
// Each image keeps its own stack: a stack built on one photo is not applied to the next one
// opened; going back to the first brings its stack back; carrying a stack over is explicit (Edit
// > Copy Stack, Paste Stack); and an empty stack is never written as a preset.

#include "gui_test_support.h"
#include "ui/document_actions.h"
#include "ui/filter_stack.h"
#include "ui/preferences_dialog.h"
#include "ui/window_menus.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QFile>

#include <string>
#include <vector>

namespace {

class ImageStacksTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        first_ = QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png");
        second_ = QStringLiteral(TESSERA_SAMPLE_DIR "/camera.png");
    }

    void add(const char* id)
    {
        window_.findChild<QAction*>(QStringLiteral("stackAdd_") + QLatin1String(id))->trigger();
    }
    QAction* action(const char* name) { return window_.findChild<QAction*>(QString::fromLatin1(name)); }
    std::vector<std::string> ids() const
    {
        std::vector<std::string> out;
        for (const auto& entry : window_.filterStack()->state().entries) {
            out.push_back(entry.choice.id);
        }
        return out;
    }

    QString first_;
    QString second_;
};

TEST_F(ImageStacksTest, TheNextImageOpensWithItsOwnStackNotThePreviousOne)
{
    controller_.openImage(first_);
    add("sobel");
    ASSERT_EQ(ids(), std::vector<std::string>{"sobel"});
    controller_.openImage(second_);
    EXPECT_TRUE(ids().empty()) << "the Sobel of " << first_.toStdString() << " followed to the next image";
    add("box");
    controller_.openImage(first_);
    EXPECT_EQ(ids(), std::vector<std::string>{"sobel"});
    controller_.openImage(second_);
    EXPECT_EQ(ids(), std::vector<std::string>{"box"});
}

TEST_F(ImageStacksTest, PreferencesCanTurnTheReturnOfStacksOff)
{
    // The dialog deletes itself when closed, as Edit > Preferences opens it.
    auto* dialog = new tessera::ui::PreferencesDialog({});
    auto* check = dialog->findChild<QCheckBox*>(QStringLiteral("restoreStacksCheck"));
    ASSERT_NE(check, nullptr);
    EXPECT_TRUE(check->isChecked());
    check->setChecked(false);
    dialog->accept();
    EXPECT_FALSE(tessera::ui::PreferencesDialog::restoresStacks());
    controller_.openImage(first_);
    add("sobel");
    controller_.openImage(second_);
    controller_.openImage(first_);
    EXPECT_TRUE(ids().empty()) << "the stack came back although Preferences turned that off";
}

TEST_F(ImageStacksTest, CopyStackAndPasteStackCarryItOverAsOneUndoableStep)
{
    controller_.openImage(first_);
    EXPECT_FALSE(action("actionCopyStack")->isEnabled());
    add("gaussian");
    add("sharpen");
    ASSERT_TRUE(action("actionCopyStack")->isEnabled());
    action("actionCopyStack")->trigger();
    controller_.openImage(second_);
    ASSERT_TRUE(ids().empty());
    ASSERT_TRUE(action("actionPasteStack")->isEnabled());
    action("actionPasteStack")->trigger();
    EXPECT_EQ(ids(), (std::vector<std::string>{"gaussian", "sharpen"}));
    controller_.undoStack().undo();
    EXPECT_TRUE(ids().empty());
}

TEST_F(ImageStacksTest, AnEmptyStackIsNotSavedAsAPreset)
{
    controller_.openImage(first_);
    EXPECT_FALSE(window_.menus()->documents()->savePreset()->isEnabled());
    const QString path = tessera::test::tempPath(QStringLiteral("image-stacks"), QStringLiteral("empty.json"));
    QFile::remove(path);
    emit window_.savePresetRequested(path);
    EXPECT_FALSE(QFile::exists(path));
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("no enabled filter"))) << window_.lastError().toStdString();
    add("box");
    EXPECT_TRUE(window_.menus()->documents()->savePreset()->isEnabled());
}

}  // namespace
