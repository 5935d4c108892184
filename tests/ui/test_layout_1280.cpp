// SPDX-License-Identifier: Apache-2.0
// The window laid out for a 1280 x 800 screen: every control of the Filter and Kernel docks is
// within its dock without sideways scrolling, the kernel grid's cells share the dock's width,
// and the profiler opens at a modest height below the image, leaving the parameters in view.
// With TESSERA_SCREENSHOT_DIR set, the test also saves the window at each step (1280 x 800).

#include "gui_test_support.h"
#include "ui/filter_dock.h"
#include "ui/filter_panel.h"
#include "ui/image_view.h"
#include "ui/kernel_dock.h"
#include "ui/kernel_editor.h"
#include "ui/profiler_dock.h"
#include "ui/run_docks.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QStatusBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>

namespace {

QAbstractScrollArea* scrollAreaOf(QWidget* w)
{
    for (QWidget* p = w->parentWidget(); p != nullptr; p = p->parentWidget()) {
        if (auto* area = qobject_cast<QScrollArea*>(p)) {
            return area;
        }
    }
    return nullptr;
}

QWidget* dockOf(QWidget* w)
{
    for (QWidget* p = w->parentWidget(); p != nullptr; p = p->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(p)) {
            return dock;
        }
    }
    return nullptr;
}

class Layout1280 : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        window_.resize(1280, 800);
        QTest::qWait(100);
        ASSERT_EQ(window_.size(), QSize(1280, 800));
    }

    void openAndAdd(const char* id)
    {
        controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/astronaut.png"));
        window_.findChild<QAction*>(QStringLiteral("stackAdd_") + QLatin1String(id))->trigger();
        waitForPreview();
    }

    void waitForPreview()
    {
        QSignalSpy shown(&controller_, &tessera::app::GuiController::previewShown);
        for (int i = 0; i < 50 && controller_.isPreviewPending(); ++i) {
            shown.wait(200);
        }
        QTest::qWait(100);
    }

    /// A shown widget of the window and where it is seen: its dock's scrolling area (null when
    /// there is none) and the frame it must fit, that area's viewport or else the dock.
    struct Placed {
        QWidget* widget = nullptr;
        QAbstractScrollArea* area = nullptr;
        QWidget* frame = nullptr;
    };
    Placed placed(const char* name) const
    {
        Placed p;
        p.widget = window_.findChild<QWidget*>(QLatin1String(name));
        if (p.widget == nullptr || !p.widget->isVisible()) {
            ADD_FAILURE() << name << " is missing or hidden";
            return {};
        }
        p.area = scrollAreaOf(p.widget);
        p.frame = p.area != nullptr ? p.area->viewport() : dockOf(p.widget);
        if (p.frame == nullptr) {
            ADD_FAILURE() << name << " is in no dock";
            return {};
        }
        return p;
    }

    /// w is shown whole, at least as wide as it asks, inside its dock's scrolling area, and
    /// that area does not scroll sideways.
    void expectWhole(const char* name)
    {
        const Placed p = placed(name);
        if (p.frame == nullptr) {
            return;
        }
        if (p.area != nullptr) {
            EXPECT_EQ(p.area->horizontalScrollBar()->maximum(), 0) << name << ": its dock scrolls sideways";
        }
        const QRect r(p.widget->mapTo(p.frame, QPoint(0, 0)), p.widget->size());
        EXPECT_GE(r.left(), 0) << name;
        EXPECT_LE(r.right(), p.frame->width()) << name << " ends at " << r.right() << " of " << p.frame->width();
        if (qobject_cast<QPushButton*>(p.widget) != nullptr) {
            EXPECT_GE(p.widget->width(), p.widget->sizeHint().width()) << name << " is squeezed";
        }
    }

    /// w can be seen without scrolling its dock: it lies within the viewport with the dock
    /// scrolled to its top.
    void expectUnscrolled(const char* name)
    {
        const Placed p = placed(name);
        if (p.frame == nullptr) {
            return;
        }
        if (p.area != nullptr) {
            p.area->verticalScrollBar()->setValue(0);
            QCoreApplication::processEvents();
        }
        const QRect r(p.widget->mapTo(p.frame, QPoint(0, 0)), p.widget->size());
        EXPECT_GE(r.top(), 0) << name;
        QWidget* content = p.area != nullptr ? static_cast<QScrollArea*>(p.area)->widget() : nullptr;
        EXPECT_LE(r.bottom(), p.frame->height()) << name << " ends at " << r.bottom() << " of " << p.frame->height()
                                                 << ": it needs scrolling (the content asks for at least "
                                                 << (content != nullptr ? content->minimumSizeHint().height() : 0)
                                                 << " and is " << (content != nullptr ? content->height() : 0) << ")";
    }

    void shot(const QString& name)
    {
        const QString dir = qEnvironmentVariable("TESSERA_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            QTest::qWait(300);  // the status bar lays out its new texts
            QDir().mkpath(dir);
            const QImage image = window_.grab().toImage();
            EXPECT_EQ(image.size(), QSize(1280, 800));
            EXPECT_TRUE(image.save(QDir(dir).filePath(name)));
        }
    }
};

TEST_F(Layout1280, EmptyStack)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/astronaut.png"));
    expectWhole("emptyStackText");
    expectWhole("emptyStackAddButton");
    shot(QStringLiteral("editor-empty-stack-cpu.png"));
}

TEST_F(Layout1280, GaussianShowsEveryControl)
{
    openAndAdd("gaussian");
    for (const char* name : {"filterCombo", "param_sigma_spin", "param_size_spin", "borderCombo", "depthCombo",
                             "resetButton", "kernelGrid", "setAnchorButton", "centreAnchorButton", "normaliseButton",
                             "copyToCustomButton", "scaleSpin", "offsetSpin"}) {
        expectWhole(name);
    }
    auto* grid = window_.findChild<QTableView*>(QStringLiteral("kernelGrid"));
    EXPECT_EQ(grid->horizontalScrollBar()->maximum(), 0);
    shot(QStringLiteral("editor-gaussian-cpu.png"));
}

TEST_F(Layout1280, CustomKernel7x7)
{
    openAndAdd("custom");
    auto* editor = window_.kernelDock()->editor();
    editor->findChild<QSpinBox*>(QStringLiteral("widthSpin"))->setValue(7);
    editor->findChild<QSpinBox*>(QStringLiteral("heightSpin"))->setValue(7);
    waitForPreview();
    auto* grid = window_.findChild<QTableView*>(QStringLiteral("kernelGrid"));
    ASSERT_EQ(grid->model()->columnCount(), 7);
    EXPECT_EQ(grid->horizontalScrollBar()->maximum(), 0);
    for (const char* name : {"kernelGrid", "widthSpin", "heightSpin", "setAnchorButton", "centreAnchorButton",
                             "normaliseButton", "scaleSpin", "offsetSpin", "loadButton", "saveButton"}) {
        expectWhole(name);
    }
    // The kernel's own controls fit the dock's height, so a 7 x 7 kernel needs no scrolling.
    for (const char* name : {"scaleSpin", "offsetSpin", "normaliseButton", "loadButton", "saveButton"}) {
        expectUnscrolled(name);
    }
    shot(QStringLiteral("editor-kernel-7x7-cpu.png"));
}

TEST_F(Layout1280, CompareZoomedIn)
{
    openAndAdd("gaussian");
    window_.imageView()->setSplitEnabled(true);
    window_.imageView()->setZoom(3.0);
    waitForPreview();
    shot(QStringLiteral("editor-compare-zoomed-cpu.png"));
}

TEST_F(Layout1280, FloatResult)
{
    openAndAdd("sobel");
    auto* depth = window_.findChild<QComboBox*>(QStringLiteral("depthCombo"));
    depth->setCurrentIndex(depth->findText(QStringLiteral("32-bit float")));
    waitForPreview();
    ASSERT_EQ(controller_.previewData().depth(), CV_32F);
    shot(QStringLiteral("editor-float-result-cpu.png"));
}

TEST_F(Layout1280, ProfilerOpensAtAModestHeight)
{
    openAndAdd("gaussian");
    window_.runDocks()->profilerDock()->show();
    QTest::qWait(200);
    EXPECT_LE(window_.runDocks()->profilerDock()->height(), 800 / 3 + 10);
    // The parameters stay in view beside it: the Filter dock keeps the window's height.
    EXPECT_GE(window_.filterDock()->panel()->visibleRegion().boundingRect().height(), 150);
    expectWhole("param_sigma_spin");
    shot(QStringLiteral("editor-profiler-cpu.png"));
}

TEST_F(Layout1280, LongStatusTextsAreElidedWithTheWholeTextInTheirTooltips)
{
    const QString summary = QStringLiteral("CPU path (no NVIDIA driver is installed (libcuda.so was not found)) ") +
                            QString(200, QLatin1Char('x'));
    window_.setComputeSummary(summary);
    auto* compute = window_.findChild<QLabel*>(QStringLiteral("computeLabel"));
    ASSERT_NE(compute, nullptr);
    EXPECT_LE(compute->sizeHint().width(), 300);
    EXPECT_EQ(compute->toolTip(), summary);
    EXPECT_NE(compute->text(), summary);
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/astronaut.png"));
    EXPECT_TRUE(window_.statusBar()->toolTip().contains(QStringLiteral("astronaut.png")));
}

TEST_F(Layout1280, ALongPassingMessageIsCutWithAnEllipsisAndKeptWhole)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/astronaut.png"));
    QTest::qWait(100);
    const QString message = QStringLiteral("Opened /a/very/long/folder/name/that/goes/on/") +
                            QString(150, QLatin1Char('x')) +
                            QStringLiteral(", rotated 90\u00b0 clockwise as its EXIF orientation asks; kept EXIF, XMP");
    window_.showMessage(message);
    const QString shown = window_.statusBar()->currentMessage();
    EXPECT_TRUE(shown.endsWith(QChar(0x2026))) << shown.toStdString();
    EXPECT_LT(window_.statusBar()->fontMetrics().horizontalAdvance(shown), window_.width());
    EXPECT_EQ(window_.statusMessage(), message);
    EXPECT_EQ(window_.statusBar()->toolTip(), message);

    // A narrower window cuts it again, to what is left of the first field.
    window_.resize(900, 800);
    QTest::qWait(200);
    const QString narrower = window_.statusBar()->currentMessage();
    EXPECT_TRUE(narrower.endsWith(QChar(0x2026))) << narrower.toStdString();
    EXPECT_LT(narrower.size(), shown.size());
    int firstField = window_.statusBar()->width();
    for (const QLabel* label : window_.statusBar()->findChildren<QLabel*>()) {
        if (label->isVisible()) {
            firstField = std::min(firstField, label->geometry().left());
        }
    }
    EXPECT_LE(window_.statusBar()->fontMetrics().horizontalAdvance(narrower), firstField)
        << narrower.toStdString() << " does not fit left of the fields (" << firstField << " px)";
    EXPECT_EQ(window_.statusMessage(), message);
}

}  // namespace
