// SPDX-License-Identifier: Apache-2.0
// Every key of the window does one thing where it is pressed: no two actions that can fire at
// the same time share a key (Qt then does nothing but warn "Ambiguous shortcut overload"), Save
// As has a key on every platform, and Help > Keyboard Shortcuts names actions by their lasting
// names and says where a key works only in one place.

#include "gui_test_support.h"
#include "ui/help_menu.h"
#include "ui/kernel_dock.h"
#include "ui/kernel_editor.h"
#include "ui/filter_stack.h"
#include "ui/image_view.h"
#include "ui/window_menus.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QKeyEvent>
#include <QShortcut>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <string>
#include <vector>

namespace {

/// One key binding of the window: what it is called, its key, and the widget it is limited to
/// (null for keys that work anywhere in the window).
struct Binding {
    QString name;
    QKeySequence key;
    QWidget* only = nullptr;
};

std::vector<Binding> bindingsOf(QWidget& window)
{
    const auto limitedTo = [](Qt::ShortcutContext context, QObject* parent) -> QWidget* {
        const bool local = context == Qt::WidgetShortcut || context == Qt::WidgetWithChildrenShortcut;
        return local ? qobject_cast<QWidget*>(parent) : nullptr;
    };
    std::vector<Binding> out;
    for (QAction* action : window.findChildren<QAction*>()) {
        for (const QKeySequence& key : action->shortcuts()) {
            out.push_back({action->objectName(), key, limitedTo(action->shortcutContext(), action->parent())});
        }
    }
    for (QShortcut* shortcut : window.findChildren<QShortcut*>()) {
        out.push_back(
            {QStringLiteral("shortcut"), shortcut->key(), limitedTo(shortcut->context(), shortcut->parent())});
    }
    return out;
}

/// True when widget, focused, claims key for itself before the window's shortcuts see it.
bool claims(QWidget* widget, const QKeySequence& key)
{
    widget->setFocus();
    const QKeyCombination combination = key[0];
    QKeyEvent override(QEvent::ShortcutOverride, combination.key(), combination.keyboardModifiers());
    override.ignore();
    QCoreApplication::sendEvent(widget, &override);
    return override.isAccepted();
}

class ShortcutKeysTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
        window_.findChild<QAction*>(QStringLiteral("stackAdd_custom"))->trigger();
        window_.activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(&window_));
        grid_ = window_.kernelDock()->editor()->findChild<QTableView*>(QStringLiteral("kernelGrid"));
        ASSERT_NE(grid_, nullptr);
    }

    QTableView* grid_ = nullptr;
};

TEST_F(ShortcutKeysTest, NoTwoActionsThatCanFireTogetherShareAKey)
{
    const std::vector<Binding> bindings = bindingsOf(window_);
    ASSERT_GT(bindings.size(), 20u);
    int clashes = 0;
    for (std::size_t i = 0; i < bindings.size(); ++i) {
        for (std::size_t j = i + 1; j < bindings.size(); ++j) {
            const Binding& a = bindings[i];
            const Binding& b = bindings[j];
            if (a.key != b.key) {
                continue;
            }
            if (a.only != nullptr && b.only != nullptr && a.only != b.only) {
                continue;  // limited to two widgets, and only one has focus
            }
            // A key limited to one widget may also be a window key when that widget, focused,
            // takes the key first.
            QWidget* local = a.only != nullptr ? a.only : b.only;
            if (local != nullptr && claims(local, a.key)) {
                continue;
            }
            ++clashes;
            ADD_FAILURE() << a.name.toStdString() << " and " << b.name.toStdString() << " share "
                          << a.key.toString().toStdString();
        }
    }
    EXPECT_EQ(clashes, 0);
}

TEST_F(ShortcutKeysTest, CtrlReturnSetsTheAnchorInTheGridAndAppliesElsewhere)
{
    QSignalSpy applied(window_.menus(), &tessera::ui::WindowMenus::applyRequested);
    grid_->setFocus();
    grid_->setCurrentIndex(grid_->model()->index(0, 2));  // row 0, column 2: cell (2, 0)
    QTest::keyClick(grid_, Qt::Key_Return, Qt::ControlModifier);
    EXPECT_EQ(applied.count(), 0);
    ASSERT_NE(window_.filterStack()->currentEntry(), nullptr);
    EXPECT_EQ(window_.filterStack()->currentEntry()->choice.values.anchor, (tessera::filters::Point{2, 0}));

    window_.imageView()->setFocus();
    QTest::keyClick(window_.imageView(), Qt::Key_Return, Qt::ControlModifier);
    EXPECT_EQ(applied.count(), 1);
}

TEST_F(ShortcutKeysTest, SaveAsHasAKey)
{
    auto* saveAs = window_.findChild<QAction*>(QStringLiteral("actionSaveAs"));
    ASSERT_NE(saveAs, nullptr);
    ASSERT_FALSE(saveAs->shortcuts().isEmpty());
    const auto* save = window_.findChild<QAction*>(QStringLiteral("actionSave"));
    EXPECT_FALSE(saveAs->shortcuts().contains(save->shortcut()));
}

TEST_F(ShortcutKeysTest, TheListUsesLastingNamesAndSaysWhereLocalKeysWork)
{
    // After an edit the Undo action reads "Undo Add Custom kernel"; the list still says "Undo".
    ASSERT_TRUE(window_.findChild<QAction*>(QStringLiteral("actionUndo"))->text().size() > 6);
    QStringList names;
    for (const auto& row : window_.help()->shortcutList()) {
        names << row.first;
    }
    EXPECT_TRUE(names.contains(QStringLiteral("Undo"))) << names.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(names.contains(QStringLiteral("Redo")));
    for (const QString& name : names) {
        EXPECT_FALSE(name.startsWith(QStringLiteral("Undo "))) << name.toStdString();
    }
    EXPECT_TRUE(names.contains(QStringLiteral("Set anchor here (kernel grid focused)")))
        << names.join(QStringLiteral(" | ")).toStdString();
}

}  // namespace
