// SPDX-License-Identifier: Apache-2.0
// The whole filtered image, when the preview covers only the view: computed off the GUI thread,
// which goes on handling events until the result arrives (or the wait is given up).
#include "gui_test_support.h"

#include "app/gui/gui_controller.h"
#include "app/gui/preview_controller.h"
#include "filters/cpu_executor.h"
#include "filters/registry.h"
#include "ui/image_view.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QTest>

#include <opencv2/core.hpp>

#include <memory>

namespace {

using tessera::app::gui::PreviewController;
using tessera::filters::FilterChain;

FilterChain gaussianChain()
{
    return FilterChain{{tessera::filters::builtinRegistry().get("gaussian").build({})}};
}

class WholeResultTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        previews_ = controller_.findChild<PreviewController*>();
        ASSERT_NE(previews_, nullptr);
        controller_.setRegionPreviewThreshold(10'000);
        controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
        ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
        original_ = controller_.sourceImage().clone();
        window_.imageView()->setZoom(4.0);
        QTest::qWait(50);
        window_.findChild<QAction*>(QStringLiteral("stackAdd_gaussian"))->trigger();
        // A preview of the view's part only: the whole result has to be computed.
        for (int i = 0; i < 200 && (previews_->isPreviewPending() || previews_->previewData().empty()); ++i) {
            QTest::qWait(10);
        }
        ASSERT_FALSE(previews_->previewData().empty());
        ASSERT_NE(previews_->previewRegion(), tessera::values::imageRect(original_.cols, original_.rows));
    }

    PreviewController* previews_ = nullptr;
    cv::Mat original_;
};

/// What one withCurrentResult() call handed back, and whether it has.
struct Outcome {
    bool arrived = false;
    cv::Mat result;
    QString failure;
};

/// Asks for the whole result; the outcome fills in when it comes.
std::shared_ptr<Outcome> ask(tessera::app::GuiController& controller)
{
    auto outcome = std::make_shared<Outcome>();
    controller.withCurrentResult(
        [outcome](const cv::Mat& result) {
            outcome->arrived = true;
            outcome->result = result.clone();
        },
        [outcome](const QString& why) {
            outcome->arrived = true;
            outcome->failure = why;
        });
    return outcome;
}

TEST_F(WholeResultTest, TheGuiThreadHandlesEventsWhileTheWholeImageIsComputedAndTheResultArrives)
{
    const auto outcome = ask(controller_);
    // The call returned before the result: the GUI thread is free while the Engine works.
    EXPECT_FALSE(outcome->arrived);
    EXPECT_TRUE(previews_->isComputingWhole());
    bool handled = false;
    QMetaObject::invokeMethod(
        &window_, [&] { handled = true; }, Qt::QueuedConnection);
    ASSERT_TRUE(QTest::qWaitFor([&] { return outcome->arrived; }, 20'000));
    EXPECT_TRUE(handled);
    EXPECT_FALSE(previews_->isComputingWhole());
    ASSERT_TRUE(outcome->failure.isEmpty()) << outcome->failure.toStdString();
    const cv::Mat want = tessera::filters::applyCpu(original_, gaussianChain());
    ASSERT_EQ(outcome->result.size(), want.size());
    ASSERT_EQ(outcome->result.type(), want.type());
    EXPECT_LE(cv::norm(outcome->result, want, cv::NORM_INF), 1.0);
    // The whole result is on screen too, and the next ask is answered at once.
    EXPECT_EQ(previews_->previewRegion(), (tessera::values::Rect{0, 0, original_.cols, original_.rows}));
    EXPECT_TRUE(ask(controller_)->arrived);
}

TEST_F(WholeResultTest, EscapeGivesUpTheWaitAndTheWindowCarriesOn)
{
    const auto outcome = ask(controller_);
    ASSERT_FALSE(outcome->arrived);
    QTest::keyClick(&window_, Qt::Key_Escape);
    ASSERT_TRUE(outcome->arrived);
    EXPECT_NE(outcome->failure.indexOf(QStringLiteral("cancelled")), -1) << outcome->failure.toStdString();
    EXPECT_FALSE(previews_->isComputingWhole());
    // The computation finishes in the background and becomes the preview; the next ask gets the
    // whole image.
    std::shared_ptr<Outcome> again;
    for (int i = 0; i < 2000; ++i) {
        again = ask(controller_);
        if (again->arrived && again->failure.isEmpty()) {
            break;
        }
        QTest::qWait(10);  // the earlier request is still on its way
    }
    ASSERT_TRUE(again->arrived);
    ASSERT_TRUE(again->failure.isEmpty()) << again->failure.toStdString();
    const cv::Mat want = tessera::filters::applyCpu(original_, gaussianChain());
    ASSERT_EQ(again->result.size(), want.size());
    EXPECT_LE(cv::norm(again->result, want, cv::NORM_INF), 1.0);
}

TEST_F(WholeResultTest, AStackChangedWhileTheWholeImageIsComputedIsNotAppliedStale)
{
    const auto outcome = ask(controller_);
    ASSERT_FALSE(outcome->arrived);
    // Before the result can be delivered (it comes through the event loop): another filter.
    window_.findChild<QAction*>(QStringLiteral("stackAdd_gaussian"))->trigger();
    ASSERT_TRUE(QTest::qWaitFor([&] { return outcome->arrived; }, 20'000));
    EXPECT_TRUE(outcome->result.empty());
    EXPECT_NE(outcome->failure.indexOf(QStringLiteral("stack changed")), -1) << outcome->failure.toStdString();
}

}  // namespace
