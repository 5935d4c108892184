// SPDX-License-Identifier: Apache-2.0
// Navigation by habit: Ctrl+Y redoes; with the image view focused, plain + - 1 0 zoom; the
// middle button pans and Shift+wheel scrolls sideways; Delete in the filter list removes the
// selected filter (in the kernel grid it still clears cells); Filters > Add Filter; the
// toolbar's common actions name their shortcuts; Help lists the keys and links the guide.

#include "gui_test_support.h"
#include "ui/filter_stack.h"
#include "ui/image_view.h"
#include "ui/help_menu.h"
#include "ui/main_window.h"
#include "ui/zoom_field.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QScrollBar>
#include <QTableView>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QWheelEvent>

namespace {

const QString kCoffee = QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png");

class HabitsTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        window_.resize(1280, 800);
        window_.activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(&window_));
        controller_.openImage(kCoffee);
    }

    void add(const char* id)
    {
        window_.findChild<QAction*>(QStringLiteral("stackAdd_") + QLatin1String(id))->trigger();
    }

    QMenu* menu(const QString& title)
    {
        for (QAction* a : window_.menuBar()->actions()) {
            if (a->text() == title) {
                return a->menu();
            }
        }
        return nullptr;
    }
};

TEST_F(HabitsTest, CtrlYRedoes)
{
    add("box");
    ASSERT_EQ(window_.filterStack()->state().entries.size(), 1u);
    controller_.undoStack().undo();
    ASSERT_TRUE(window_.filterStack()->state().entries.empty());
    QTest::keyClick(&window_, Qt::Key_Y, Qt::ControlModifier);
    EXPECT_EQ(window_.filterStack()->state().entries.size(), 1u);
}

TEST_F(HabitsTest, UndoAndRedoAreIconsSoTheToolbarFitsA1024Window)
{
    window_.resize(1024, 700);
    add("log");  // "Add Laplacian of Gaussian": the longest step name of the built-in filters
    QCoreApplication::processEvents();
    auto* bar = window_.findChild<QToolBar*>(QStringLiteral("mainToolBar"));
    auto* undo = window_.findChild<QAction*>(QStringLiteral("actionUndo"));
    auto* compare = window_.findChild<QAction*>(QStringLiteral("actionCompare"));
    ASSERT_TRUE(undo->text().contains(QStringLiteral("Laplacian of Gaussian"))) << undo->text().toStdString();
    EXPECT_TRUE(undo->toolTip().contains(QStringLiteral("Laplacian of Gaussian"))) << undo->toolTip().toStdString();
    for (const char* name : {"actionUndo", "actionRedo"}) {
        auto* button =
            qobject_cast<QToolButton*>(bar->widgetForAction(window_.findChild<QAction*>(QLatin1String(name))));
        ASSERT_NE(button, nullptr) << name;
        EXPECT_EQ(button->toolButtonStyle(), Qt::ToolButtonIconOnly) << name;
        EXPECT_FALSE(button->icon().isNull()) << name;
        EXPECT_LT(button->width(), 60) << name;
    }
    // Not pushed into the toolbar's overflow menu, where its button would be hidden.
    QWidget* compareButton = bar->widgetForAction(compare);
    ASSERT_NE(compareButton, nullptr);
    EXPECT_TRUE(compareButton->isVisible());
    EXPECT_LE(compareButton->geometry().right(), bar->width());

    // A short dock scrolls the filter's fields; it does not squeeze them below their height.
    for (const char* name : {"borderCombo", "depthCombo", "borderValueSpin"}) {
        auto* field = window_.findChild<QWidget*>(QLatin1String(name));
        ASSERT_NE(field, nullptr) << name;
        EXPECT_GE(field->height(), field->sizeHint().height()) << name;
    }

    // Optional: a picture of the window at this size, to look at (once the status bar has laid
    // out the preview's text).
    if (const QByteArray shots = qgetenv("TESSERA_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QTest::qWait(100);
        window_.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("editor-1024-cpu.png")));
    }
}

TEST_F(HabitsTest, PlainKeysZoomWhenTheViewHasFocus)
{
    auto* view = window_.imageView();
    view->setFocus();
    ASSERT_TRUE(view->hasFocus());
    view->actualSize();
    QTest::keyClick(view, Qt::Key_Plus);
    EXPECT_GT(view->zoomFactor(), 1.0);
    QTest::keyClick(view, Qt::Key_Minus);
    QTest::keyClick(view, Qt::Key_Minus);
    EXPECT_LT(view->zoomFactor(), 1.0);
    QTest::keyClick(view, Qt::Key_1);
    EXPECT_DOUBLE_EQ(view->zoomFactor(), 1.0);
    QTest::keyClick(view, Qt::Key_0);
    EXPECT_TRUE(view->isFitToWindow());
    QTest::keyClick(view, Qt::Key_Equal);
    EXPECT_FALSE(view->isFitToWindow());

    // Typed into another field, the same keys are text.
    const double zoom = view->zoomFactor();
    window_.filterStack()->findChild<QListWidget*>(QStringLiteral("stackList"))->setFocus();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_1);
    EXPECT_DOUBLE_EQ(view->zoomFactor(), zoom);
}

TEST_F(HabitsTest, MiddleDragPansAndShiftWheelScrollsSideways)
{
    auto* view = window_.imageView();
    view->setZoom(4.0);
    QWidget* port = view->viewport();
    QScrollBar* h = view->horizontalScrollBar();
    QScrollBar* v = view->verticalScrollBar();
    ASSERT_GT(h->maximum(), 0);
    h->setValue(h->maximum() / 2);
    v->setValue(v->maximum() / 2);
    const int x0 = h->value();
    const int y0 = v->value();
    QTest::mousePress(port, Qt::MiddleButton, Qt::NoModifier, QPoint(200, 200));
    QMouseEvent move(QEvent::MouseMove, QPointF(150, 170), port->mapToGlobal(QPointF(150, 170)), Qt::NoButton,
                     Qt::MiddleButton, Qt::NoModifier);
    QApplication::sendEvent(port, &move);
    QTest::mouseRelease(port, Qt::MiddleButton, Qt::NoModifier, QPoint(150, 170));
    EXPECT_EQ(h->value(), x0 + 50);
    EXPECT_EQ(v->value(), y0 + 30);

    const int x1 = h->value();
    const int y1 = v->value();
    const QPointF at(100, 100);
    QWheelEvent wheel(at, port->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::ShiftModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(port, &wheel);
    EXPECT_GT(h->value(), x1);
    EXPECT_EQ(v->value(), y1);
    EXPECT_DOUBLE_EQ(view->zoomFactor(), 4.0);
}

TEST_F(HabitsTest, DeleteRemovesTheSelectedFilterOnlyFromTheList)
{
    add("box");
    add("custom");
    ASSERT_EQ(window_.filterStack()->state().entries.size(), 2u);
    // In the kernel grid Delete clears cells and leaves the stack alone.
    auto* grid = window_.findChild<QTableView*>(QStringLiteral("kernelGrid"));
    if (grid != nullptr && grid->isVisible()) {
        grid->setFocus();
        grid->setCurrentIndex(grid->model()->index(0, 0));
        QTest::keyClick(grid, Qt::Key_Delete);
        EXPECT_EQ(window_.filterStack()->state().entries.size(), 2u);
    }
    auto* list = window_.filterStack()->findChild<QListWidget*>(QStringLiteral("stackList"));
    list->setFocus();
    ASSERT_TRUE(list->hasFocus());
    QTest::keyClick(list, Qt::Key_Delete);
    ASSERT_EQ(window_.filterStack()->state().entries.size(), 1u);
    EXPECT_EQ(window_.filterStack()->state().entries[0].choice.id, "box");
}

TEST_F(HabitsTest, FiltersMenuToolbarAndHelp)
{
    QMenu* filters = menu(QStringLiteral("F&ilters"));
    ASSERT_NE(filters, nullptr);
    QAction* addFilter = window_.findChild<QAction*>(QStringLiteral("actionAddFilter"));
    ASSERT_NE(addFilter, nullptr);
    EXPECT_TRUE(filters->actions().contains(addFilter));
    ASSERT_NE(addFilter->menu(), nullptr);
    EXPECT_FALSE(addFilter->menu()->actions().isEmpty());

    auto* bar = window_.findChild<QToolBar*>(QStringLiteral("mainToolBar"));
    QStringList names;
    for (QAction* a : bar->actions()) {
        names << a->objectName();
    }
    for (const char* name : {"actionOpen", "actionSave", "actionExport", "actionUndo", "actionRedo", "actionCompare"}) {
        EXPECT_TRUE(names.contains(QLatin1String(name))) << name;
    }
    const auto tip = [&](const char* name) { return window_.findChild<QAction*>(QLatin1String(name))->toolTip(); };
    EXPECT_TRUE(tip("actionSave").contains(QKeySequence(QKeySequence::Save).toString(QKeySequence::NativeText)))
        << tip("actionSave").toStdString();
    EXPECT_TRUE(tip("actionRedo").contains(QStringLiteral("Ctrl+Y"))) << tip("actionRedo").toStdString();
    EXPECT_TRUE(tip("actionCompare").contains(QStringLiteral("Ctrl+B"))) << tip("actionCompare").toStdString();

    QMenu* help = menu(QStringLiteral("&Help"));
    ASSERT_NE(help, nullptr);
    EXPECT_TRUE(help->actions().contains(window_.findChild<QAction*>(QStringLiteral("actionShortcuts"))));
    EXPECT_TRUE(help->actions().contains(window_.findChild<QAction*>(QStringLiteral("actionUserGuide"))));
    EXPECT_FALSE(window_.help()->userGuidePlaces().isEmpty());
    bool redoListed = false;
    bool zoomKeysListed = false;
    for (const auto& [what, keys] : window_.help()->shortcutList()) {
        redoListed |= what.startsWith(QStringLiteral("Redo")) && keys.contains(QStringLiteral("Ctrl+Y"));
        zoomKeysListed |= keys == QStringLiteral("1 / 0");
    }
    EXPECT_TRUE(redoListed);
    EXPECT_TRUE(zoomKeysListed);
    window_.help()->showShortcuts();
    EXPECT_NE(window_.findChild<QDialog*>(QStringLiteral("shortcutsDialog")), nullptr);
}

TEST_F(HabitsTest, TheZoomFieldFollowsTheViewAndAppliesATypedPercentage)
{
    using tessera::ui::ImageView;
    auto* view = window_.imageView();
    auto* bar = window_.findChild<QToolBar*>(QStringLiteral("mainToolBar"));
    auto* field = bar->findChild<QLineEdit*>(QStringLiteral("zoomField"));
    ASSERT_NE(field, nullptr);
    EXPECT_TRUE(field->isEnabled());
    EXPECT_TRUE(field->isVisible());
    view->setZoom(2.0);
    EXPECT_EQ(field->text(), QStringLiteral("200%"));
    view->zoomOut();
    EXPECT_EQ(field->text(), QStringLiteral("160%"));

    const auto type = [&](const QString& text, Qt::Key key = Qt::Key_Return) {
        field->setFocus();
        field->selectAll();
        QTest::keyClicks(field, text);
        QTest::keyClick(field, key);
    };
    type(QStringLiteral("150"));
    EXPECT_DOUBLE_EQ(view->zoomFactor(), 1.5);
    EXPECT_EQ(field->text(), QStringLiteral("150%"));
    type(QStringLiteral("12.5 %"));
    EXPECT_DOUBLE_EQ(view->zoomFactor(), 0.125);
    EXPECT_EQ(field->text(), QStringLiteral("12.5%"));

    // Text that is no zoom is refused: the view stays, the field shows the zoom again and says why.
    for (const char* bad : {"abc", "0", "-50", "%"}) {
        type(QString::fromLatin1(bad));
        EXPECT_DOUBLE_EQ(view->zoomFactor(), 0.125) << bad;
        EXPECT_EQ(field->text(), QStringLiteral("12.5%")) << bad;
    }
    EXPECT_TRUE(field->toolTip().contains(QStringLiteral("not a zoom"))) << field->toolTip().toStdString();

    // Beyond the view's limit the zoom is clamped, and the field shows the value taken.
    type(QStringLiteral("100000"));
    EXPECT_DOUBLE_EQ(view->zoomFactor(), ImageView::kMaxZoom);
    EXPECT_EQ(field->text(), tessera::ui::ZoomField::formatPercent(ImageView::kMaxZoom));

    // Escape puts the current zoom back without applying; typing digits here never zooms.
    type(QStringLiteral("50"), Qt::Key_Escape);
    EXPECT_DOUBLE_EQ(view->zoomFactor(), ImageView::kMaxZoom);
    EXPECT_EQ(field->text(), tessera::ui::ZoomField::formatPercent(ImageView::kMaxZoom));

    // Without an image there is nothing to zoom.
    tessera::ui::MainWindow empty;
    auto* emptyField = empty.findChild<QLineEdit*>(QStringLiteral("zoomField"));
    ASSERT_NE(emptyField, nullptr);
    EXPECT_FALSE(emptyField->isEnabled());
    EXPECT_TRUE(emptyField->text().isEmpty());
}

TEST(ZoomFieldParse, PercentagesAndNothingElse)
{
    using tessera::ui::ZoomField;
    EXPECT_EQ(ZoomField::parsePercent(QStringLiteral("150%")), 1.5);
    EXPECT_EQ(ZoomField::parsePercent(QStringLiteral(" 25 ")), 0.25);
    EXPECT_FALSE(ZoomField::parsePercent(QStringLiteral("")).has_value());
    EXPECT_FALSE(ZoomField::parsePercent(QStringLiteral("1e999")).has_value());
    EXPECT_FALSE(ZoomField::parsePercent(QStringLiteral("nan")).has_value());
    EXPECT_FALSE(ZoomField::parsePercent(QStringLiteral("x2")).has_value());
    EXPECT_EQ(ZoomField::formatPercent(1.0 / 3.0), QStringLiteral("33.3%"));
}

}  // namespace
