// SPDX-License-Identifier: Apache-2.0
#include "ui/kernel_editor.h"

#include "app/document/kernel_preset.h"
#include "filters/registry.h"

#include "filters/factories.h"
#include "ui/kernel_grid_model.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolTip>
#include <QTest>

#include <optional>
#include <tuple>
#include <vector>

using tessera::filters::Kernel2D;
using tessera::filters::Point;
using tessera::ui::KernelEditor;
using tessera::ui::KernelGridModel;

namespace {

using Anchor = std::optional<Point>;

Kernel2D counting3x3()
{
    return Kernel2D{3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
}

// The outer product column * row, row-major.
Kernel2D outer(const std::vector<double>& column, const std::vector<double>& row)
{
    Kernel2D k{static_cast<int>(row.size()), static_cast<int>(column.size()), {}};
    for (const double c : column) {
        for (const double r : row) {
            k.weights.push_back(c * r);
        }
    }
    return k;
}

class KernelEditorTest : public testing::Test {
protected:
    template <typename T>
    T* find(const char* name)
    {
        T* widget = editor_.findChild<T*>(QString::fromLatin1(name));
        EXPECT_NE(widget, nullptr) << name;
        return widget;
    }

    QTableView* grid() { return find<QTableView>("kernelGrid"); }
    QModelIndex cell(int x, int y) { return grid()->model()->index(y, x); }
    QString text(const char* label) { return find<QLabel>(label)->text(); }

    // Key and mouse tests need a shown, active window.
    void showEditor()
    {
        editor_.resize(520, 480);
        editor_.show();
        editor_.activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(&editor_));
    }

    // The (kernel, anchor) of the spy's last emission.
    static std::pair<Kernel2D, Anchor> last(const QSignalSpy& spy)
    {
        const QList<QVariant> args = spy.last();
        return {args.at(0).value<Kernel2D>(), args.at(1).value<Anchor>()};
    }

    QString writeFile(const QString& name, const QByteArray& contents)
    {
        const QString path = dir_.filePath(name);
        QFile file(path);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(contents);
        return path;
    }

    KernelEditor editor_;
    QTemporaryDir dir_;
};

TEST(KernelGridHelpers, ParseFormatAndResize)
{
    using namespace tessera::ui;
    EXPECT_EQ(parseWeight(QStringLiteral(" -0.25 ")), -0.25);
    EXPECT_EQ(parseWeight(QStringLiteral("1/16")), 0.0625);
    EXPECT_EQ(parseWeight(QStringLiteral("2e-3")), 0.002);
    for (const char* bad : {"", "abc", "1/0", "1e400", "nan", "1,2,3", "--1"}) {
        EXPECT_FALSE(parseWeight(QString::fromLatin1(bad)).has_value()) << bad;
    }
    EXPECT_EQ(formatWeight(0.1), QStringLiteral("0.1"));
    EXPECT_EQ(formatWeight(-0.0), QStringLiteral("0"));
    EXPECT_EQ(parseWeight(formatWeight(1.0 / 3.0)), 1.0 / 3.0);

    // Odd to even and back: the centre cell stays on the centre.
    const Kernel2D wide = resizeCentred(counting3x3(), 4, 3);
    EXPECT_EQ(wide.weights, (std::vector<double>{0, 1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9}));
    EXPECT_EQ(resizeCentred(wide, 3, 3), counting3x3());
    EXPECT_EQ(resizeCentred(counting3x3(), 1, 1).weights, std::vector<double>{5});
}

TEST_F(KernelEditorTest, StartsAsAnEditableIdentity)
{
    EXPECT_EQ(editor_.kernel(), (Kernel2D{3, 3, {0, 0, 0, 0, 1, 0, 0, 0, 0}}));
    EXPECT_FALSE(editor_.anchor().has_value());
    EXPECT_FALSE(editor_.isReadOnly());
    EXPECT_EQ(editor_.scale(), 1.0);
    EXPECT_EQ(editor_.offset(), 0.0);
    EXPECT_EQ(find<QSpinBox>("widthSpin")->value(), 3);
    EXPECT_EQ(find<QSpinBox>("heightSpin")->maximum(), KernelEditor::kMaxEditorSide);
    EXPECT_TRUE(find<QPushButton>("copyToCustomButton")->isHidden());
    EXPECT_TRUE(text("anchorLabel").contains(QStringLiteral("(1, 1), centre")));
    EXPECT_FALSE(grid()->tabKeyNavigation());  // Tab leaves the grid
}

// A tiny weight is shown with its exponent, short enough for the column: elided to "1.97..." it
// would read as a weight near 2.
TEST_F(KernelEditorTest, TinyWeightsKeepTheirExponentInNarrowCells)
{
    editor_.resize(400, 480);
    editor_.show();
    Kernel2D k{7, 7, std::vector<double>(49, 0.0131)};
    k.weights[0] = 1.97e-5;
    k.weights[1] = -2.39e-4;
    k.weights[2] = 123456.0;
    k.weights[3] = 0.00292;
    editor_.setKernel(k);
    QCoreApplication::processEvents();
    const QFontMetrics metrics(grid()->font());
    const std::pair<int, const char*> shown[] = {{0, "2e-5"}, {1, "-2.4e-4"}, {2, "1.2e5"}, {3, "0.0029"}};
    for (const auto& [x, want] : shown) {
        const QString text = cell(x, 0).data(Qt::DisplayRole).toString();
        EXPECT_EQ(text, QString::fromLatin1(want));
        // Fits the column beside the usual "0.0131" (cell margins take a few pixels).
        EXPECT_LE(metrics.horizontalAdvance(text), metrics.horizontalAdvance(QStringLiteral("-0.0131")) + 2) << want;
    }
}

TEST_F(KernelEditorTest, TypingIntoACellEmitsTheNewWeight)
{
    showEditor();
    QSignalSpy spy(&editor_, &KernelEditor::kernelEdited);
    grid()->setFocus();
    grid()->setCurrentIndex(cell(0, 1));
    grid()->edit(cell(0, 1));
    auto* lineEdit = grid()->viewport()->findChild<QLineEdit*>();
    ASSERT_NE(lineEdit, nullptr);
    lineEdit->setText(QStringLiteral("-0.25"));
    QTest::keyClick(lineEdit, Qt::Key_Return);
    // The delegate commits from a queued call.
    EXPECT_TRUE(QTest::qWaitFor([&] { return spy.count() > 0; }, 2000));
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(last(spy).first.at(0, 1), -0.25);
    EXPECT_EQ(editor_.kernel().at(0, 1), -0.25);
    EXPECT_EQ(cell(0, 1).data().toString(), QStringLiteral("-0.25"));
    EXPECT_TRUE(text("sumLabel").contains(QStringLiteral("0.75")));
}

TEST_F(KernelEditorTest, BadTextIsRefusedWithAHint)
{
    QSignalSpy spy(&editor_, &KernelEditor::kernelEdited);
    auto* message = find<QLabel>("kernelMessage");
    EXPECT_TRUE(message->isHidden());
    EXPECT_FALSE(grid()->model()->setData(cell(1, 1), QStringLiteral("abc"), Qt::EditRole));
    EXPECT_EQ(spy.count(), 0);
    EXPECT_EQ(editor_.kernel().at(1, 1), 1.0);  // not silently 0
    EXPECT_FALSE(message->isHidden());
    EXPECT_TRUE(message->text().contains(QStringLiteral("abc")));
    EXPECT_TRUE(message->text().contains(QStringLiteral("not a number")));

    // A fraction is a number; the hint goes once an edit succeeds.
    EXPECT_TRUE(grid()->model()->setData(cell(1, 1), QStringLiteral("1/16"), Qt::EditRole));
    EXPECT_EQ(spy.count(), 1);
    EXPECT_EQ(editor_.kernel().at(1, 1), 0.0625);
    EXPECT_TRUE(message->isHidden());
}

// The refusal shows at the cell too, where the user is looking, not only below the grid.
TEST_F(KernelEditorTest, BadTextIsRefusedAtTheCell)
{
    showEditor();
    EXPECT_FALSE(grid()->model()->setData(cell(2, 1), QStringLiteral("x7"), Qt::EditRole));
    ASSERT_TRUE(QToolTip::isVisible());
    EXPECT_TRUE(QToolTip::text().contains(QStringLiteral("x7")));
    EXPECT_TRUE(QToolTip::text().contains(QStringLiteral("cell (2, 1)")));
    QToolTip::hideText();
}

TEST_F(KernelEditorTest, DeleteClearsTheSelectedCells)
{
    editor_.setKernel(counting3x3());
    showEditor();
    QSignalSpy spy(&editor_, &KernelEditor::kernelEdited);
    grid()->setFocus();
    grid()->setCurrentIndex(cell(0, 0));
    grid()->selectionModel()->select(QItemSelection(cell(0, 0), cell(1, 1)), QItemSelectionModel::ClearAndSelect);
    QTest::keyClick(grid(), Qt::Key_Delete);
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(editor_.kernel().weights, (std::vector<double>{0, 0, 3, 0, 0, 6, 7, 8, 9}));
}

TEST_F(KernelEditorTest, ResizingKeepsTheWeightsCentred)
{
    editor_.setKernel(counting3x3());
    QSignalSpy spy(&editor_, &KernelEditor::kernelEdited);
    find<QSpinBox>("widthSpin")->setValue(5);
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(last(spy).first.width, 5);
    EXPECT_EQ(editor_.kernel().weights, (std::vector<double>{0, 1, 2, 3, 0, 0, 4, 5, 6, 0, 0, 7, 8, 9, 0}));

    // Shrinking then growing again brings the cut-off weights back.
    find<QSpinBox>("heightSpin")->setValue(1);
    EXPECT_EQ(editor_.kernel(), (Kernel2D{5, 1, {0, 4, 5, 6, 0}}));
    find<QSpinBox>("heightSpin")->setValue(4);
    EXPECT_EQ(editor_.kernel().height, 4);
    EXPECT_EQ(editor_.kernel().at(1, 1), 1.0);
    EXPECT_EQ(editor_.kernel().at(2, 2), 5.0);
    EXPECT_EQ(editor_.kernel().at(3, 3), 9.0);
    EXPECT_EQ(editor_.kernel().sum(), 45.0);
    EXPECT_EQ(spy.count(), 3);
}

TEST_F(KernelEditorTest, AnExplicitAnchorMovesWithItsCellOnResize)
{
    editor_.setKernel(counting3x3(), Point{0, 0});
    find<QSpinBox>("widthSpin")->setValue(7);
    EXPECT_EQ(editor_.anchor(), (Point{2, 0}));
    find<QSpinBox>("widthSpin")->setValue(1);  // the anchor's column is cut off: clamped
    EXPECT_EQ(editor_.anchor(), (Point{0, 0}));
}

TEST_F(KernelEditorTest, CtrlClickSetsTheAnchorAndCentreAnchorResetsIt)
{
    showEditor();
    QSignalSpy spy(&editor_, &KernelEditor::kernelEdited);
    QTest::mouseClick(grid()->viewport(), Qt::LeftButton, Qt::ControlModifier, grid()->visualRect(cell(2, 0)).center());
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(editor_.anchor(), (Point{2, 0}));
    EXPECT_EQ(last(spy).second, (Point{2, 0}));
    EXPECT_TRUE(cell(2, 0).data(KernelGridModel::AnchorRole).toBool());
    EXPECT_FALSE(cell(1, 1).data(KernelGridModel::AnchorRole).toBool());
    EXPECT_EQ(text("anchorLabel"), QStringLiteral("Anchor: (2, 0)"));

    find<QPushButton>("centreAnchorButton")->click();
    EXPECT_EQ(spy.count(), 2);
    EXPECT_FALSE(editor_.anchor().has_value());
    EXPECT_TRUE(cell(1, 1).data(KernelGridModel::AnchorRole).toBool());
}

TEST_F(KernelEditorTest, SetAnchorModeMenuActionAndShortcut)
{
    showEditor();
    auto* button = find<QPushButton>("setAnchorButton");
    button->click();
    EXPECT_TRUE(button->isChecked());
    QTest::mouseClick(grid()->viewport(), Qt::LeftButton, Qt::NoModifier, grid()->visualRect(cell(0, 2)).center());
    EXPECT_EQ(editor_.anchor(), (Point{0, 2}));
    EXPECT_FALSE(button->isChecked());

    // The context-menu action acts on the current cell.
    grid()->setCurrentIndex(cell(1, 0));
    find<QAction>("setAnchorAction")->trigger();
    EXPECT_EQ(editor_.anchor(), (Point{1, 0}));
    // So does its shortcut, Ctrl+Return, while the grid has focus.
    grid()->setFocus();
    grid()->setCurrentIndex(cell(2, 1));
    QTest::keyClick(grid(), Qt::Key_Return, Qt::ControlModifier);
    EXPECT_EQ(editor_.anchor(), (Point{2, 1}));
}

TEST_F(KernelEditorTest, NormaliseDividesBySum)
{
    editor_.setKernel(Kernel2D{2, 2, {1, 2, 3, 4}});
    QSignalSpy spy(&editor_, &KernelEditor::kernelEdited);
    find<QPushButton>("normaliseButton")->click();
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(editor_.kernel().weights, (std::vector<double>{0.1, 0.2, 0.3, 0.4}));
    EXPECT_NEAR(editor_.kernel().sum(), 1.0, 1e-15);
    EXPECT_EQ(text("sumLabel"), QStringLiteral("Sum of weights: 1"));
}

TEST_F(KernelEditorTest, ZeroSumNormaliseIsRefusedWithAMessage)
{
    const Kernel2D laplacian{3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0}};
    editor_.setKernel(laplacian);
    QSignalSpy spy(&editor_, &KernelEditor::kernelEdited);
    find<QPushButton>("normaliseButton")->click();
    EXPECT_EQ(spy.count(), 0);
    EXPECT_EQ(editor_.kernel(), laplacian);
    EXPECT_FALSE(find<QLabel>("kernelMessage")->isHidden());
    EXPECT_TRUE(editor_.message().contains(QStringLiteral("add up to 0")));

    // Rounding noise does not make a zero-sum kernel normalisable, and reads as 0.
    const Kernel2D log = tessera::filters::makeLaplacianOfGaussian(1.0).kernel;
    editor_.setKernel(log);
    EXPECT_EQ(text("sumLabel"), QStringLiteral("Sum of weights: 0"));
    find<QPushButton>("normaliseButton")->click();
    EXPECT_EQ(spy.count(), 0);
    EXPECT_EQ(editor_.kernel(), log);
}

TEST_F(KernelEditorTest, ScaleAndOffsetEditsEmitAndSettersDoNot)
{
    QSignalSpy spy(&editor_, &KernelEditor::kernelEdited);
    editor_.setScaleOffset(2.0, -3.0);
    EXPECT_EQ(spy.count(), 0);
    EXPECT_EQ(editor_.scale(), 2.0);
    find<QDoubleSpinBox>("scaleSpin")->setValue(0.5);
    find<QDoubleSpinBox>("offsetSpin")->setValue(128.0);
    EXPECT_EQ(spy.count(), 2);
    EXPECT_EQ(editor_.scale(), 0.5);
    EXPECT_EQ(editor_.offset(), 128.0);
    EXPECT_EQ(editor_.customKernel().scale, 0.5);
    EXPECT_EQ(editor_.customKernel().offset, 128.0);
}

TEST_F(KernelEditorTest, ShowsWhetherTheKernelIsRankOne)
{
    editor_.setKernel(outer({1, 2, 1}, {1, 4, 6, 4, 1}));
    const QString separable = text("separableLabel");
    EXPECT_TRUE(separable.startsWith(QStringLiteral("Separable (rank 1): row [")));
    const qsizetype column = separable.indexOf(QStringLiteral("column ["));
    ASSERT_GT(column, 0);
    EXPECT_EQ(separable.left(column).count(QLatin1Char(',')), 5);  // 5 taps, then ", column"
    EXPECT_EQ(separable.mid(column).count(QLatin1Char(',')), 2);   // 3 taps

    // One changed weight breaks the rank-1 structure.
    EXPECT_TRUE(grid()->model()->setData(cell(0, 0), 5.0, Qt::EditRole));
    EXPECT_EQ(text("separableLabel"), QStringLiteral("Not separable"));
}

TEST_F(KernelEditorTest, CellsAreShadedBySign)
{
    editor_.setKernel(Kernel2D{3, 1, {-2, 0, 2}});
    const auto colour = [&](int x) { return cell(x, 0).data(Qt::BackgroundRole).value<QColor>(); };
    EXPECT_GT(colour(0).blue(), colour(0).red());
    EXPECT_GT(colour(2).red(), colour(2).blue());
    EXPECT_EQ(colour(1), QGuiApplication::palette().color(QPalette::Base));
}

TEST_F(KernelEditorTest, SaveThenLoadRoundTrips)
{
    ASSERT_TRUE(dir_.isValid());
    const Kernel2D kernel{4, 3, {0.1, -1e-7, 1.0 / 3.0, 2, 0, 5, -4, 1e6, 7, 8, 9, 0.25}};
    editor_.setKernel(kernel, Point{3, 2});
    editor_.setScaleOffset(0.25, 10.0);
    const QString path = dir_.filePath(QStringLiteral("sharp.json"));
    QString error;
    const auto& registry = tessera::filters::builtinRegistry();
    ASSERT_TRUE(tessera::app::document::writeKernelPreset(editor_.customKernel(), path, registry, &error))
        << error.toStdString();
    // Only the preset remains: the temporary file was renamed onto it.
    EXPECT_EQ(QDir(dir_.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("sharp.json")});

    KernelEditor other;
    other.showReadOnly(tessera::filters::makeBox(5), QStringLiteral("Box 5 x 5"));
    QSignalSpy spy(&other, &KernelEditor::kernelEdited);
    const auto loaded = tessera::app::document::readKernelPreset(path, registry, &error);
    ASSERT_TRUE(loaded.has_value()) << error.toStdString();
    other.showLoadedKernel(loaded->value, QStringLiteral("sharp.json"), loaded->note);
    EXPECT_EQ(spy.count(), 1);
    EXPECT_EQ(other.kernel(), kernel);
    EXPECT_EQ(other.anchor(), (Point{3, 2}));
    EXPECT_EQ(other.scale(), 0.25);
    EXPECT_EQ(other.offset(), 10.0);
    EXPECT_FALSE(other.isReadOnly());
}

TEST_F(KernelEditorTest, BadPresetFilesGiveErrorsNamingTheFile)
{
    ASSERT_TRUE(dir_.isValid());
    QSignalSpy spy(&editor_, &KernelEditor::kernelEdited);
    const Kernel2D before = editor_.kernel();
    const QString truncated = writeFile(QStringLiteral("broken.json"), "{\"size\": [3, 3], \"wei");
    const QString shortWeights = writeFile(QStringLiteral("short.json"), R"({"size": [3, 3], "weights": [1, 2, 3]})");
    const QString chain = writeFile(QStringLiteral("chain.json"),
                                    R"({"name": "two", "filters": [{"id": "box", "params": {}}, {"id": "sharpen"}]})");
    for (const auto& [path, name, detail] :
         {std::tuple{truncated, "broken.json", "invalid JSON"}, std::tuple{shortWeights, "short.json", "weights"},
          std::tuple{chain, "chain.json", "chain of 2"},
          std::tuple{dir_.filePath(QStringLiteral("missing.json")), "missing.json", "not found"}}) {
        QString error;
        EXPECT_FALSE(tessera::app::document::readKernelPreset(path, tessera::filters::builtinRegistry(), &error))
            << name;
        EXPECT_TRUE(error.contains(QString::fromLatin1(name))) << error.toStdString();
        EXPECT_TRUE(error.contains(QString::fromLatin1(detail))) << error.toStdString();
    }
    EXPECT_EQ(spy.count(), 0);
    EXPECT_EQ(editor_.kernel(), before);
}

TEST_F(KernelEditorTest, ReadOnlyRefusesEditsUntilCopiedToCustom)
{
    const tessera::filters::FilterSpec gaussian = tessera::filters::makeGaussian(1.2, 7);
    editor_.showReadOnly(gaussian, QStringLiteral("Gaussian 7 x 7"));
    showEditor();
    QSignalSpy spy(&editor_, &KernelEditor::kernelEdited);
    EXPECT_TRUE(editor_.isReadOnly());
    EXPECT_TRUE(text("kernelTitle").contains(QStringLiteral("Gaussian 7 x 7")));
    EXPECT_TRUE(text("separableLabel").startsWith(QStringLiteral("Separable (rank 1)")));
    EXPECT_FALSE(grid()->model()->flags(cell(3, 3)).testFlag(Qt::ItemIsEditable));
    EXPECT_FALSE(grid()->model()->setData(cell(3, 3), 1.0, Qt::EditRole));
    EXPECT_FALSE(find<QSpinBox>("widthSpin")->isEnabled());
    EXPECT_FALSE(find<QPushButton>("normaliseButton")->isEnabled());
    EXPECT_FALSE(find<QDoubleSpinBox>("scaleSpin")->isEnabled());
    QTest::mouseClick(grid()->viewport(), Qt::LeftButton, Qt::ControlModifier, grid()->visualRect(cell(0, 0)).center());
    EXPECT_FALSE(editor_.anchor().has_value());
    EXPECT_EQ(editor_.kernel(), gaussian.kernel);
    EXPECT_EQ(spy.count(), 0);

    auto* copy = find<QPushButton>("copyToCustomButton");
    ASSERT_TRUE(copy->isVisible());
    copy->click();
    EXPECT_FALSE(editor_.isReadOnly());
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(last(spy).first, gaussian.kernel);
    EXPECT_FALSE(copy->isVisible());
    EXPECT_TRUE(find<QSpinBox>("widthSpin")->isEnabled());
    EXPECT_TRUE(grid()->model()->setData(cell(3, 3), 1.0, Qt::EditRole));
    EXPECT_EQ(editor_.kernel().at(3, 3), 1.0);
}

TEST_F(KernelEditorTest, SetKernelLeavesReadOnlyWithoutEmitting)
{
    editor_.showReadOnly(tessera::filters::makeBox(3), QStringLiteral("Box 3 x 3"));
    QSignalSpy spy(&editor_, &KernelEditor::kernelEdited);
    editor_.setKernel(counting3x3(), Point{2, 2});
    EXPECT_FALSE(editor_.isReadOnly());
    EXPECT_EQ(editor_.anchor(), (Point{2, 2}));
    EXPECT_EQ(spy.count(), 0);
}

TEST_F(KernelEditorTest, LargeKernelsScrollInSmallCells)
{
    editor_.setKernel(Kernel2D{31, 31, std::vector<double>(31 * 31, 1.0)});
    showEditor();
    EXPECT_EQ(grid()->model()->columnCount(), 31);
    EXPECT_LE(grid()->columnWidth(0), 80);
    // Cells share the width the grid has (a pixel left over goes to some of them).
    EXPECT_NEAR(grid()->columnWidth(30), grid()->columnWidth(0), 1);
    EXPECT_GT(grid()->horizontalScrollBar()->maximum(), 0);
    EXPECT_GT(grid()->verticalScrollBar()->maximum(), 0);
    EXPECT_EQ(find<QSpinBox>("widthSpin")->value(), 31);
}

}  // namespace
