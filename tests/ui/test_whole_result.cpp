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

#include <stdexcept>

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
        ASSERT_NE(previews_->previewRegion().size(), QSize(original_.cols, original_.rows));
    }

    PreviewController* previews_ = nullptr;
    cv::Mat original_;
};

TEST_F(WholeResultTest, TheGuiThreadHandlesEventsWhileTheWholeImageIsComputedAndTheResultArrives)
{
    // Posted before the wait starts: it runs inside it, ahead of the result's delivery, only if
    // the GUI thread goes on handling events.
    bool handled = false;
    bool computingMeanwhile = false;
    QMetaObject::invokeMethod(
        &window_,
        [&] {
            handled = true;
            computingMeanwhile = previews_->isComputingWhole();
        },
        Qt::QueuedConnection);
    const cv::Mat result = controller_.currentResult();
    EXPECT_TRUE(handled);
    EXPECT_TRUE(computingMeanwhile);
    EXPECT_FALSE(previews_->isComputingWhole());
    const cv::Mat want = tessera::filters::applyCpu(original_, gaussianChain());
    ASSERT_EQ(result.size(), want.size());
    ASSERT_EQ(result.type(), want.type());
    EXPECT_LE(cv::norm(result, want, cv::NORM_INF), 1.0);
    // The whole result is on screen too.
    EXPECT_EQ(previews_->previewRegion(), QRect(0, 0, original_.cols, original_.rows));
}

TEST_F(WholeResultTest, TheWaitCanBeGivenUpAndTheWindowCarriesOn)
{
    QMetaObject::invokeMethod(&window_, [this] { previews_->cancelWholeResult(); }, Qt::QueuedConnection);
    try {
        controller_.currentResult();
        ADD_FAILURE() << "a cancelled wait must not return a result";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("cancelled"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(previews_->isComputingWhole());
    // The computation finishes in the background; the next ask gets the whole image.
    cv::Mat result;
    for (int i = 0; i < 200 && result.empty(); ++i) {
        try {
            result = controller_.currentResult();
        } catch (const std::runtime_error&) {
            QTest::qWait(10);  // the earlier request is still on its way
        }
    }
    const cv::Mat want = tessera::filters::applyCpu(original_, gaussianChain());
    ASSERT_EQ(result.size(), want.size());
    EXPECT_LE(cv::norm(result, want, cv::NORM_INF), 1.0);
}

}  // namespace
