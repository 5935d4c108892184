// SPDX-License-Identifier: Apache-2.0
#include "app/document/document.h"

#include "app/cli/cli_filter_options.h"
#include "app/document/kernel_preset.h"
#include "filters/registry.h"

#include <gtest/gtest.h>

#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <opencv2/core.hpp>

#include <string>
#include <tuple>
#include <vector>

namespace {

using tessera::app::document::Document;
using tessera::filters::StackEntry;
using tessera::filters::StackState;

class DocumentTest : public testing::Test {
protected:
    double sizeOf(int entry) const
    {
        return document_.stack().entries.at(static_cast<size_t>(entry)).choice.values.get("size", 0.0);
    }
    /// The selected entry with its size parameter set to size, as the Filter panel sends it.
    void setSize(int size)
    {
        tessera::filters::FilterChoice choice = document_.stack().currentEntry()->choice;
        choice.values.values["size"] = size;
        document_.editCurrent(choice);
    }

    Document document_{tessera::filters::builtinRegistry()};
};

TEST_F(DocumentTest, EachEditIsANamedCommandThatUndoAndRedoReplay)
{
    QSignalSpy changed(&document_, &Document::stackChanged);
    document_.addFilter(QStringLiteral("box"));
    document_.addFilter(QStringLiteral("gaussian"));
    document_.moveEntry(1, 0);
    document_.setEntryEnabled(1, false);
    document_.removeEntry(0);
    ASSERT_EQ(document_.undoStack().count(), 5);
    EXPECT_EQ(document_.undoStack().text(0), QStringLiteral("Add Box blur"));
    EXPECT_EQ(document_.undoStack().text(1), QStringLiteral("Add Gaussian blur"));
    EXPECT_EQ(document_.undoStack().text(2), QStringLiteral("Move Gaussian blur up"));
    EXPECT_EQ(document_.undoStack().text(3), QStringLiteral("Disable Box blur"));
    EXPECT_EQ(document_.undoStack().text(4), QStringLiteral("Remove Gaussian blur"));
    EXPECT_EQ(changed.count(), 5);
    const StackState last = document_.stack();
    ASSERT_EQ(last.entries.size(), 1u);
    EXPECT_EQ(last.entries[0].choice.id, "box");
    EXPECT_FALSE(last.entries[0].enabled);
    EXPECT_EQ(last.current, 0);

    // Undo walks back through every state; the document says so each time.
    document_.undoStack().undo();
    document_.undoStack().undo();
    ASSERT_EQ(document_.stack().entries.size(), 2u);
    EXPECT_EQ(document_.stack().entries[0].choice.id, "gaussian");
    EXPECT_TRUE(document_.stack().entries[1].enabled);
    EXPECT_EQ(document_.stack().current, 0);
    document_.undoStack().undo();
    document_.undoStack().undo();
    document_.undoStack().undo();
    EXPECT_EQ(document_.stack(), StackState{});
    EXPECT_EQ(changed.count(), 10);
    while (document_.undoStack().canRedo()) {
        document_.undoStack().redo();
    }
    EXPECT_EQ(document_.stack(), last);
    EXPECT_EQ(changed.count(), 15);
}

TEST_F(DocumentTest, ParameterEditsOfOneEntryMergeAndEditsThatChangeNothingPushNothing)
{
    document_.addFilter(QStringLiteral("box"));
    setSize(5);
    setSize(7);
    setSize(7);
    ASSERT_EQ(document_.undoStack().count(), 2);
    EXPECT_EQ(document_.undoStack().text(1), QStringLiteral("Change Box blur"));
    EXPECT_EQ(sizeOf(0), 7.0);
    document_.undoStack().undo();
    EXPECT_EQ(sizeOf(0), 3.0);
    // Out of range, or the same state: nothing to record.
    document_.removeEntry(4);
    document_.moveEntry(0, 0);
    document_.setEntryEnabled(0, true);
    document_.addFilter(QStringLiteral("no_such_filter"));
    EXPECT_EQ(document_.undoStack().count(), 2);
}

TEST_F(DocumentTest, SelectionIsNoUndoStepAndEditsKeepWhatThePanelDoesNotShow)
{
    document_.replaceEntries(
        {StackEntry{tessera::filters::defaultChoice(document_.registry().get("box")), true, 2.0, 5.0},
         StackEntry{tessera::filters::defaultChoice(document_.registry().get("sharpen"))}},
        QStringLiteral("Load preset p"));
    QSignalSpy selected(&document_, &Document::currentChanged);
    document_.select(1);
    document_.select(0);
    EXPECT_EQ(selected.count(), 2);
    EXPECT_EQ(document_.undoStack().count(), 1);
    EXPECT_EQ(document_.undoStack().text(0), QStringLiteral("Load preset p"));
    setSize(9);
    const StackEntry& box = document_.stack().entries[0];
    EXPECT_EQ(box.scale, 2.0);
    EXPECT_EQ(box.offset, 5.0);
    EXPECT_EQ(sizeOf(0), 9.0);
}

TEST_F(DocumentTest, ApplyReplacesImageAndStackAndUndoBringsBothBack)
{
    const cv::Mat original(4, 5, CV_8UC1, cv::Scalar(10));
    document_.setImage(original);
    document_.addFilter(QStringLiteral("box"));
    const StackState before = document_.stack();
    const cv::Mat result(4, 5, CV_8UC1, cv::Scalar(20));
    QSignalSpy imageChanged(&document_, &Document::imageChanged);
    document_.apply(result, QStringLiteral("Apply Box blur"));
    EXPECT_EQ(imageChanged.count(), 1);
    EXPECT_EQ(document_.image().data, result.data);
    EXPECT_EQ(document_.stack(), StackState{});
    document_.undoStack().undo();
    EXPECT_EQ(document_.image().data, original.data);
    EXPECT_EQ(document_.stack(), before);
    document_.undoStack().redo();
    EXPECT_EQ(document_.image().data, result.data);
    EXPECT_EQ(imageChanged.count(), 3);
    // Opening another image keeps the stack and starts a new history.
    document_.setImage(original);
    EXPECT_EQ(document_.undoStack().count(), 0);
}

TEST_F(DocumentTest, ApplyKeepsTheDisabledFiltersItDidNotApply)
{
    document_.setImage(cv::Mat(4, 5, CV_8UC1, cv::Scalar(10)));
    document_.addFilter(QStringLiteral("box"));
    document_.addFilter(QStringLiteral("gaussian"));
    document_.addFilter(QStringLiteral("sharpen"));
    document_.setEntryEnabled(1, false);
    const StackState before = document_.stack();
    document_.apply(cv::Mat(4, 5, CV_8UC1, cv::Scalar(20)), QStringLiteral("Apply 2 filters"));
    ASSERT_EQ(document_.stack().entries.size(), 1u);
    EXPECT_EQ(document_.stack().entries[0].choice.id, "gaussian");
    EXPECT_FALSE(document_.stack().entries[0].enabled);
    EXPECT_EQ(document_.stack().current, 0);
    document_.undoStack().undo();
    EXPECT_EQ(document_.stack(), before);
}

TEST(KernelPreset, RoundTripsAndRefusesWhatTheRegistryRefuses)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const auto& registry = tessera::filters::builtinRegistry();
    const tessera::filters::CustomKernel kernel{tessera::filters::Kernel2D{3, 2, {1, -2, 0.5, 4, 1e-6, 3}},
                                                tessera::filters::Point{2, 1}, 0.5, 7.0};
    const QString path = dir.filePath(QStringLiteral("k.json"));
    QString error;
    ASSERT_TRUE(tessera::app::document::writeKernelPreset(kernel, path, registry, &error)) << error.toStdString();
    const auto loaded = tessera::app::document::readKernelPreset(path, registry, &error);
    ASSERT_TRUE(loaded.has_value()) << error.toStdString();
    EXPECT_EQ(loaded->value, kernel);
    EXPECT_TRUE(loaded->note.isEmpty());

    // An anchor outside the kernel is not a kernel the custom filter builds.
    tessera::filters::CustomKernel bad = kernel;
    bad.anchor = tessera::filters::Point{5, 5};
    const QString badPath = dir.filePath(QStringLiteral("bad.json"));
    EXPECT_FALSE(tessera::app::document::writeKernelPreset(bad, badPath, registry, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("bad.json"))) << error.toStdString();
    EXPECT_FALSE(QFileInfo::exists(badPath));
}

}  // namespace

namespace {

TEST(FilterOptions, TheGuiReadsFilterAndParamAsTheCliDoes)
{
    const auto& registry = tessera::filters::builtinRegistry();
    tessera::filters::FilterChoice box = tessera::filters::defaultChoice(registry.get("box"));
    box.values.values["size"] = 5;
    EXPECT_EQ(tessera::app::filterChoiceOption("box", {"size=5"}, registry), box);
    // The CLI's parser takes the same values into the spec it builds.
    const std::vector<std::string> args{"--filter", "box", "--param", "size=5"};
    tessera::app::FilterOptionParser parser;
    tessera::app::ArgumentReader in(args, {tessera::app::filterOptionTable()});
    while (in.next()) {
        ASSERT_TRUE(parser.consume(in));
    }
    EXPECT_EQ(parser.finish().steps.at(0).spec, registry.get("box").build(box.values));
    // Mistakes are the CLI's usage errors, with its wording.
    for (const auto& [id, params, words] : {std::tuple{"nope", std::vector<std::string>{}, "unknown filter 'nope'"},
                                            std::tuple{"box", std::vector<std::string>{"size"}, "expects KEY=VALUE"},
                                            std::tuple{"box", std::vector<std::string>{"size=x"}, "size"}}) {
        try {
            tessera::app::filterChoiceOption(id, params, registry);
            ADD_FAILURE() << id;
        } catch (const tessera::app::UsageError& e) {
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    }
    // A combination the filter refuses is left for the window to report.
    EXPECT_NO_THROW(tessera::app::filterChoiceOption("sobel", {"dx=0", "dy=0"}, registry));
}

}  // namespace
