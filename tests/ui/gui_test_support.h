// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/gui/gui_controller.h"
#include "filters/cpu_executor.h"
#include "filters/filter_spec.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>

#include <opencv2/core.hpp>

namespace tessera::test {

/// A shown main window with its controller; settings start empty and no box is modal.
class WindowFixture : public testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        window_.setModalDialogsEnabled(false);
        window_.resize(800, 600);
        window_.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window_));
        // As the application does at start: with the devices known, the Devices dock's first
        // refresh changes nothing and so cannot restart a preview a test has asked for.
        controller_.refreshDeviceInfo();
    }

    /// The window's child of type T named `name`; a test failure (and null) when there is none.
    template <typename T>
    T* find(const QString& name)
    {
        auto* found = window_.findChild<T*>(name);
        EXPECT_NE(found, nullptr) << name.toStdString();
        return found;
    }

    /// Waits until Apply or Export has the whole filtered image and has used it (at once when
    /// the preview covered it); false after 20 s.
    bool waitForWholeResult()
    {
        return QTest::qWaitFor([this] { return !controller_.isComputingWhole(); }, 20'000);
    }

    ui::MainWindow window_;
    app::GuiController controller_{window_};
};

/// A file name in the temporary folder, unique to this process: "tessera-<tag>-<pid>-<name>".
inline QString tempPath(const QString& tag, const QString& name)
{
    return QDir::temp().filePath(
        QStringLiteral("tessera-%1-%2-%3").arg(tag).arg(QCoreApplication::applicationPid()).arg(name));
}

/// Waits until no preview is outstanding and the one on screen is chain applied to the open
/// image on the CPU path, within one level (a GPU may round another order of sums differently).
inline bool waitForPreviewOf(app::GuiController& controller, const filters::FilterChain& chain)
{
    QSignalSpy shown(&controller, &app::GuiController::previewShown);
    for (int tries = 0; tries < 100; ++tries) {
        const cv::Mat want = filters::applyCpu(controller.sourceImage(), chain);
        const cv::Mat& got = controller.previewData();
        if (!controller.isPreviewPending() && !got.empty() && got.size == want.size && got.type() == want.type() &&
            cv::norm(got, want, cv::NORM_INF) <= 1.0) {
            return true;
        }
        shown.wait(200);
    }
    return false;
}

}  // namespace tessera::test
