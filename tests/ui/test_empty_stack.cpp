// SPDX-License-Identifier: Apache-2.0
// An empty filter stack says how to add a filter instead of showing the parameters of a
// Gaussian and an editable identity kernel that belong to no filter.

#include "gui_test_support.h"
#include "ui/filter_dock.h"
#include "ui/filter_panel.h"
#include "ui/kernel_dock.h"
#include "ui/kernel_editor.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QUndoStack>

namespace {

class EmptyStackTest : public tessera::test::WindowFixture {};

TEST_F(EmptyStackTest, EmptyStackShowsHowToAddAFilter)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    EXPECT_TRUE(window_.filterDock()->showsEmptyState());
    EXPECT_TRUE(window_.kernelDock()->showsEmptyState());
    EXPECT_TRUE(find<QLabel>(QStringLiteral("emptyStackText"))->isVisible());
    EXPECT_FALSE(window_.filterDock()->panel()->isVisible());
    EXPECT_FALSE(window_.kernelDock()->editor()->isVisible());
    auto* add = find<QPushButton>(QStringLiteral("emptyStackAddButton"));
    ASSERT_NE(add->menu(), nullptr);
    EXPECT_FALSE(add->menu()->actions().isEmpty());

    window_.findChild<QAction*>(QStringLiteral("stackAdd_box"))->trigger();
    EXPECT_FALSE(window_.filterDock()->showsEmptyState());
    EXPECT_FALSE(window_.kernelDock()->showsEmptyState());
    EXPECT_TRUE(window_.filterDock()->panel()->isVisible());

    controller_.undoStack().undo();
    EXPECT_TRUE(window_.filterDock()->showsEmptyState());
    EXPECT_TRUE(window_.kernelDock()->showsEmptyState());
}

}  // namespace
