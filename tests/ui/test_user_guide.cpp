// SPDX-License-Identifier: Apache-2.0
// Help > User Guide: the HTML manual in the window's own browser, offline. On a small manual made
// by the test: the first place that holds it is home, a click on a relative link is followed (to
// an anchor of another page), Back, Forward and Home move through the pages, an https link goes to
// the desktop and leaves the page, and a missing manual is a page that names where it was looked
// for. On the manual the build made (skipped without pandoc): Help > User Guide opens it and its
// links between pages work. With TESSERA_SCREENSHOT_DIR set, that test saves user-guide.png: the
// guide over the window, as the desktop shows them.

#include "gui_test_support.h"
#include "ui/help_menu.h"
#include "ui/user_guide_dialog.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>

namespace {

using tessera::ui::UserGuideDialog;

/// Clicks the link whose text is `text` in browser, as the user does.
void clickLink(QTextBrowser* browser, const QString& text)
{
    QTextCursor cursor = browser->document()->find(text);
    ASSERT_FALSE(cursor.isNull()) << text.toStdString();
    QTextCursor middle(browser->document());
    middle.setPosition((cursor.selectionStart() + cursor.selectionEnd()) / 2);
    browser->ensureCursorVisible();
    browser->setTextCursor(middle);
    browser->ensureCursorVisible();
    const QPoint at = browser->cursorRect(middle).center();
    QTest::mouseClick(browser->viewport(), Qt::LeftButton, Qt::NoModifier, at);
}

QToolButton* button(const UserGuideDialog& dialog, const char* name)
{
    auto* found = dialog.findChild<QToolButton*>(QLatin1String(name));
    EXPECT_NE(found, nullptr) << name;
    return found;
}

class UserGuideTest : public testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(dir_.isValid());
        write(QStringLiteral("index.html"),
              QStringLiteral("<html><head><title>Small manual</title></head><body>"
                             "<h1 id=\"top\">Small manual</h1>"
                             "<p>Read the <a href=\"page2.html#part\">second page</a> or "
                             "<a href=\"https://example.org/tessera\">the project's site</a>.</p>"
                             "</body></html>"));
        QString filler;
        for (int i = 0; i < 80; ++i) {
            filler += QStringLiteral("<p>Line %1 before the part.</p>").arg(i);
        }
        write(QStringLiteral("page2.html"),
              QStringLiteral("<html><head><title>Second page</title></head><body><h1>Second page</h1>%1"
                             "<h2 id=\"part\">The part</h2><p>Go <a href=\"index.html\">home again</a>.</p>"
                             "</body></html>")
                  .arg(filler));
    }

    void write(const QString& name, const QString& text)
    {
        QFile file(dir_.filePath(name));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text.toUtf8());
    }

    QString index() const { return dir_.filePath(QStringLiteral("index.html")); }

    QTemporaryDir dir_;
};

TEST_F(UserGuideTest, TheFirstPlaceThatHoldsTheManualIsHome)
{
    UserGuideDialog dialog({dir_.filePath(QStringLiteral("not-here/index.html")), index()});
    EXPECT_EQ(dialog.home(), QFileInfo(index()).absoluteFilePath());
    EXPECT_EQ(dialog.browser()->source(), QUrl::fromLocalFile(index()));
    EXPECT_TRUE(dialog.browser()->toPlainText().contains(QStringLiteral("second page")));
    EXPECT_EQ(dialog.windowTitle(), QStringLiteral("Small manual"));
    EXPECT_TRUE(button(dialog, "guideHome")->isEnabled());
}

TEST_F(UserGuideTest, AClickOnARelativeLinkIsFollowedAndBackForwardAndHomeMove)
{
    UserGuideDialog dialog({index()});
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    QToolButton* back = button(dialog, "guideBack");
    QToolButton* forward = button(dialog, "guideForward");
    EXPECT_FALSE(back->isEnabled());
    EXPECT_FALSE(forward->isEnabled());

    clickLink(dialog.browser(), QStringLiteral("second page"));
    const QUrl page2 = dialog.browser()->source();
    EXPECT_EQ(page2.fileName(), QStringLiteral("page2.html")) << page2.toString().toStdString();
    EXPECT_EQ(page2.fragment(), QStringLiteral("part"));
    EXPECT_TRUE(dialog.browser()->toPlainText().contains(QStringLiteral("home again")));
    EXPECT_EQ(dialog.windowTitle(), QStringLiteral("Second page"));
    // The anchor is scrolled to: the page is long and no longer at its top.
    EXPECT_GT(dialog.browser()->verticalScrollBar()->value(), 0);
    EXPECT_TRUE(back->isEnabled());

    back->click();
    EXPECT_EQ(dialog.browser()->source().fileName(), QStringLiteral("index.html"));
    EXPECT_TRUE(forward->isEnabled());
    forward->click();
    EXPECT_EQ(dialog.browser()->source().fileName(), QStringLiteral("page2.html"));

    clickLink(dialog.browser(), QStringLiteral("home again"));
    EXPECT_EQ(dialog.browser()->source().fileName(), QStringLiteral("index.html"));
    dialog.openLink(QUrl(QStringLiteral("page2.html")));
    button(dialog, "guideHome")->click();
    EXPECT_EQ(dialog.browser()->source(), QUrl::fromLocalFile(index()));
}

TEST_F(UserGuideTest, ALinkToAnotherSiteGoesToTheDesktopAndThePageStays)
{
    UserGuideDialog dialog({index()});
    QList<QUrl> handed;
    dialog.setExternalLinkHandler([&handed](const QUrl& url) { handed.push_back(url); });
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    clickLink(dialog.browser(), QStringLiteral("the project's site"));
    ASSERT_EQ(handed.size(), 1);
    EXPECT_EQ(handed.front(), QUrl(QStringLiteral("https://example.org/tessera")));
    EXPECT_EQ(dialog.browser()->source(), QUrl::fromLocalFile(index()));
}

TEST(UserGuide, AMissingManualIsAPageThatNamesWhereItLooked)
{
    const QStringList places{QStringLiteral("/nonexistent/tessera-build/docs/manual/index.html"),
                             QStringLiteral("/nonexistent/share/tessera/manual/index.html")};
    UserGuideDialog dialog(places);
    EXPECT_TRUE(dialog.home().isEmpty());
    const QString text = dialog.browser()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("not here"))) << text.toStdString();
    for (const QString& place : places) {
        EXPECT_TRUE(text.contains(place)) << place.toStdString() << " not named in: " << text.toStdString();
    }
    EXPECT_FALSE(dialog.findChild<QToolButton*>(QStringLiteral("guideHome"))->isEnabled());
}

class UserGuideFromTheWindow : public tessera::test::WindowFixture {};

TEST_F(UserGuideFromTheWindow, HelpUserGuideOpensOneGuideWindowOnTheGivenPlaces)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString index = dir.filePath(QStringLiteral("index.html"));
    QFile file(index);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("<html><head><title>Guide</title></head><body><p>Hello</p></body></html>");
    file.close();

    // The controller has given the window the places of the built and installed manuals.
    EXPECT_FALSE(window_.help()->userGuidePlaces().isEmpty());
    for (const QString& place : window_.help()->userGuidePlaces()) {
        EXPECT_TRUE(place.endsWith(QStringLiteral("/manual/index.html"))) << place.toStdString();
    }
    window_.help()->setUserGuidePlaces({index});
    QAction* action = find<QAction>(QStringLiteral("actionUserGuide"));
    ASSERT_NE(action, nullptr);
    EXPECT_EQ(action->shortcut(), QKeySequence(QKeySequence::HelpContents));
    action->trigger();
    action->trigger();
    const auto dialogs = window_.findChildren<UserGuideDialog*>();
    ASSERT_EQ(dialogs.size(), 1);
    EXPECT_TRUE(dialogs.front()->isVisible());
    EXPECT_EQ(dialogs.front()->browser()->source(), QUrl::fromLocalFile(index));
    dialogs.front()->close();
}

TEST_F(UserGuideFromTheWindow, TheBuiltManualOpensAndItsPagesLinkToEachOther)
{
    const QString manual = QStringLiteral(TESSERA_MANUAL_DIR "/index.html");
    if (!QFileInfo(manual).isFile()) {
        GTEST_SKIP() << "no built manual at " << manual.toStdString() << " (pandoc missing?)";
    }
    window_.resize(1280, 800);
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    window_.help()->setUserGuidePlaces({manual});
    window_.findChild<QAction*>(QStringLiteral("actionUserGuide"))->trigger();
    auto* dialog = window_.findChild<UserGuideDialog*>();
    ASSERT_NE(dialog, nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(dialog));
    EXPECT_EQ(dialog->browser()->source(), QUrl::fromLocalFile(manual));

    clickLink(dialog->browser(), QStringLiteral("User guide"));
    EXPECT_EQ(dialog->browser()->source().fileName(), QStringLiteral("user-guide.html"));
    EXPECT_TRUE(dialog->browser()->toPlainText().contains(QStringLiteral("The filter stack")));
    // The page's screenshots are the copies beside the manual.
    EXPECT_TRUE(QFileInfo::exists(QStringLiteral(TESSERA_MANUAL_DIR "/images/preview-gpu-h200.png")));

    const QString shots = qEnvironmentVariable("TESSERA_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
        // The guide over the window, as a desktop shows the two: the offscreen platform keeps
        // each top-level window apart, so the picture puts them together.
        dialog->resize(900, 620);
        dialog->browser()->verticalScrollBar()->setValue(0);
        QTest::qWait(400);
        QImage picture = window_.grab().toImage().convertToFormat(QImage::Format_RGB32);
        const QImage guide = dialog->grab().toImage();
        const QPoint at(330, 120);
        QPainter painter(&picture);
        painter.fillRect(QRect(at + QPoint(6, 6), guide.size()), QColor(0, 0, 0, 60));
        painter.drawImage(at, guide);
        painter.setPen(QColor(90, 90, 90));
        painter.drawRect(QRect(at - QPoint(1, 1), guide.size() + QSize(1, 1)));
        painter.end();
        QDir().mkpath(shots);
        EXPECT_TRUE(picture.save(QDir(shots).filePath(QStringLiteral("user-guide.png"))));
    }
    dialog->close();
}

}  // namespace
