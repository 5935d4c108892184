// SPDX-License-Identifier: Apache-2.0
#include "ui/filter_panel.h"

#include "filters/registry.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>

#include <cmath>
#include <string>
#include <vector>

using tessera::filters::Border;
using tessera::filters::builtinRegistry;
using tessera::filters::FilterChoice;
using tessera::filters::FilterDesc;
using tessera::filters::Kernel2D;
using tessera::filters::OutputDepth;
using tessera::ui::FilterPanel;

namespace {

class FilterPanelTest : public testing::Test {
protected:
    void SetUp() override { panel_.setFilters(builtinRegistry().all()); }

    template <typename T>
    T* find(const char* name)
    {
        return panel_.findChild<T*>(QString::fromLatin1(name));
    }

    QComboBox* filterCombo() { return find<QComboBox>("filterCombo"); }

    void select(const std::string& id)
    {
        const int index = filterCombo()->findData(QString::fromStdString(id));
        ASSERT_GE(index, 0) << id;
        filterCombo()->setCurrentIndex(index);
    }

    FilterPanel panel_;
};

TEST_F(FilterPanelTest, ListsEveryBuiltinFilterAndStartsOnGaussian)
{
    ASSERT_NE(filterCombo(), nullptr);
    EXPECT_EQ(filterCombo()->count(), 13);
    EXPECT_EQ(filterCombo()->count(), static_cast<int>(builtinRegistry().all().size()));
    for (const FilterDesc& desc : builtinRegistry().all()) {
        EXPECT_GE(filterCombo()->findData(QString::fromStdString(desc.id)), 0) << desc.id;
    }
    EXPECT_EQ(panel_.currentChoice().id, "gaussian");
    EXPECT_EQ(panel_.currentChoice().values, builtinRegistry().get("gaussian").defaults());
    EXPECT_NE(find<QSlider>("param_sigma_slider"), nullptr);
}

TEST_F(FilterPanelTest, SelectingBoxBuildsItsControlsWithDefaults)
{
    QSignalSpy spy(&panel_, &FilterPanel::choiceChanged);
    select("box");
    EXPECT_EQ(spy.count(), 1);
    EXPECT_EQ(find<QSlider>("param_sigma_slider"), nullptr);
    auto* size = find<QSpinBox>("param_size_spin");
    auto* sizeSlider = find<QSlider>("param_size_slider");
    auto* normalize = find<QCheckBox>("param_normalize_check");
    ASSERT_NE(size, nullptr);
    ASSERT_NE(sizeSlider, nullptr);
    ASSERT_NE(normalize, nullptr);
    EXPECT_EQ(size->value(), 3);
    EXPECT_EQ(size->minimum(), 1);
    EXPECT_EQ(size->maximum(), tessera::filters::kMaxKernelSide);
    EXPECT_FALSE(size->toolTip().isEmpty());
    EXPECT_TRUE(normalize->isChecked());
    const FilterChoice choice = panel_.currentChoice();
    EXPECT_EQ(choice.id, "box");
    EXPECT_EQ(choice.values, builtinRegistry().get("box").defaults());
}

TEST_F(FilterPanelTest, SigmaSliderDrivesSpinBoxAndEmitsOncePerMove)
{
    auto* slider = find<QSlider>("param_sigma_slider");
    auto* spin = find<QDoubleSpinBox>("param_sigma_spin");
    ASSERT_NE(slider, nullptr);
    ASSERT_NE(spin, nullptr);
    EXPECT_EQ(slider->maximum(), FilterPanel::kDoubleSliderSteps);
    QSignalSpy spy(&panel_, &FilterPanel::choiceChanged);

    // Sigma's slider runs on a ratio scale: its middle is the geometric mean of 0.1 and 40.
    slider->setValue(500);
    EXPECT_EQ(spy.count(), 1);
    EXPECT_NEAR(spin->value(), std::sqrt(0.1 * 40.0), 0.01);
    EXPECT_DOUBLE_EQ(panel_.currentChoice().values.get("sigma", -1.0), spin->value());

    slider->setValue(501);
    EXPECT_EQ(spy.count(), 2);
    slider->setValue(0);
    EXPECT_EQ(spy.count(), 3);
    EXPECT_NEAR(panel_.currentChoice().values.get("sigma", -1.0), 0.1, 1e-9);

    // The other direction: the spin box moves the slider, still one signal.
    spin->setValue(20.0);
    EXPECT_EQ(spy.count(), 4);
    EXPECT_NEAR(slider->value(), std::log(20.0 / 0.1) / std::log(400.0) * 1000.0, 1.0);
    EXPECT_DOUBLE_EQ(panel_.currentChoice().values.get("sigma", -1.0), 20.0);
}

TEST_F(FilterPanelTest, IntSliderStaysOnTheStepGrid)
{
    select("sobel");
    auto* slider = find<QSlider>("param_size_slider");
    auto* spin = find<QSpinBox>("param_size_spin");
    ASSERT_NE(slider, nullptr);
    ASSERT_NE(spin, nullptr);
    EXPECT_EQ(spin->value(), 3);
    EXPECT_EQ(slider->maximum(), 3);  // apertures 1, 3, 5, 7
    slider->setValue(3);
    EXPECT_EQ(spin->value(), 7);
    spin->setValue(4);  // off the grid: snaps to an odd aperture
    EXPECT_EQ(spin->value() % 2, 1);
    EXPECT_EQ(panel_.currentChoice().values.get("size", -1.0), spin->value());
    EXPECT_NO_THROW(builtinRegistry().get("sobel").build(panel_.currentChoice().values));
}

TEST_F(FilterPanelTest, ChoiceParamUsesAComboOfItsNames)
{
    select("prewitt");
    auto* direction = find<QComboBox>("param_direction_combo");
    ASSERT_NE(direction, nullptr);
    ASSERT_EQ(direction->count(), 2);
    EXPECT_EQ(direction->itemText(0), QStringLiteral("horizontal"));
    EXPECT_EQ(direction->itemText(1), QStringLiteral("vertical"));
    EXPECT_EQ(direction->currentIndex(), 0);
    QSignalSpy spy(&panel_, &FilterPanel::choiceChanged);
    direction->setCurrentIndex(1);
    EXPECT_EQ(spy.count(), 1);
    EXPECT_EQ(panel_.currentChoice().values.get("direction", -1.0), 1.0);
}

TEST_F(FilterPanelTest, ResetRestoresDefaults)
{
    select("unsharp");
    find<QDoubleSpinBox>("param_amount_spin")->setValue(7.5);
    find<QSlider>("param_sigma_slider")->setValue(900);
    find<QComboBox>("borderCombo")->setCurrentIndex(3);
    find<QDoubleSpinBox>("borderValueSpin")->setValue(12.0);
    find<QComboBox>("depthCombo")->setCurrentIndex(3);
    ASSERT_NE(panel_.currentChoice().values, builtinRegistry().get("unsharp").defaults());

    QSignalSpy spy(&panel_, &FilterPanel::choiceChanged);
    find<QPushButton>("resetButton")->click();
    EXPECT_EQ(spy.count(), 1);
    const FilterChoice choice = panel_.currentChoice();
    EXPECT_EQ(choice.id, "unsharp");
    EXPECT_EQ(choice.values, builtinRegistry().get("unsharp").defaults());
    EXPECT_EQ(choice.border, Border::Reflect101);
    EXPECT_EQ(choice.borderValue, 0.0);
    EXPECT_EQ(choice.depth, OutputDepth::Same);
    EXPECT_EQ(find<QSlider>("param_sigma_slider")->value(),
              std::lround(std::log(1.0 / 0.1) / std::log(400.0) * FilterPanel::kDoubleSliderSteps));
}

TEST_F(FilterPanelTest, SetChoiceRoundTripsWithoutEmitting)
{
    FilterChoice saved;
    saved.id = "emboss";
    saved.values.values = {{"angle", -90.0}, {"strength", 2.5}};
    saved.border = Border::Constant;
    saved.borderValue = 128.0;
    saved.depth = OutputDepth::F32;

    QSignalSpy spy(&panel_, &FilterPanel::choiceChanged);
    panel_.setChoice(saved);
    EXPECT_EQ(spy.count(), 0);
    EXPECT_EQ(panel_.currentChoice(), saved);
    EXPECT_EQ(find<QDoubleSpinBox>("param_strength_spin")->value(), 2.5);
    EXPECT_TRUE(find<QDoubleSpinBox>("borderValueSpin")->isEnabled());

    // Another filter and back, as undo would do it.
    const FilterChoice before = panel_.currentChoice();
    select("box");
    find<QSpinBox>("param_size_spin")->setValue(9);
    const FilterChoice box = panel_.currentChoice();
    spy.clear();
    panel_.setChoice(before);
    EXPECT_EQ(panel_.currentChoice(), before);
    panel_.setChoice(box);
    EXPECT_EQ(panel_.currentChoice(), box);
    EXPECT_EQ(spy.count(), 0);

    // Missing values take defaults; an unknown id changes nothing.
    panel_.setChoice(FilterChoice{"sharpen", {}, Border::Wrap, 0.0, OutputDepth::U8});
    EXPECT_EQ(panel_.currentChoice().values, builtinRegistry().get("sharpen").defaults());
    const FilterChoice sharpen = panel_.currentChoice();
    panel_.setChoice(FilterChoice{"no_such_filter", {}, Border::Reflect, 1.0, OutputDepth::U16});
    EXPECT_EQ(panel_.currentChoice(), sharpen);
    EXPECT_EQ(spy.count(), 0);
}

TEST_F(FilterPanelTest, BorderValueEnabledOnlyForConstant)
{
    auto* border = find<QComboBox>("borderCombo");
    auto* value = find<QDoubleSpinBox>("borderValueSpin");
    ASSERT_NE(border, nullptr);
    ASSERT_NE(value, nullptr);
    ASSERT_EQ(border->count(), 5);
    EXPECT_FALSE(value->isEnabled());
    for (const Border b : {Border::Reflect101, Border::Reflect, Border::Replicate, Border::Constant, Border::Wrap}) {
        const int index = border->findData(QString::fromStdString(toString(b)));
        ASSERT_GE(index, 0);
        border->setCurrentIndex(index);
        EXPECT_EQ(panel_.currentChoice().border, b);
        EXPECT_EQ(value->isEnabled(), b == Border::Constant);
    }
    auto* depth = find<QComboBox>("depthCombo");
    ASSERT_EQ(depth->count(), 4);
    depth->setCurrentIndex(depth->findData(QStringLiteral("u16")));
    EXPECT_EQ(panel_.currentChoice().depth, OutputDepth::U16);
}

TEST_F(FilterPanelTest, InlineKernelParsesAndReportsErrors)
{
    select("custom");
    auto* edit = find<QLineEdit>("kernelEdit");
    auto* error = find<QLabel>("kernelError");
    ASSERT_NE(edit, nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(find<QCheckBox>("param_normalize_check"), nullptr);
    EXPECT_EQ(panel_.currentChoice().values.kernel->sum(), 1.0);

    QSignalSpy spy(&panel_, &FilterPanel::choiceChanged);
    edit->setText(QStringLiteral("0,-1,0;-1,5,-1;0,-1,0"));
    EXPECT_EQ(spy.count(), 1);
    EXPECT_TRUE(error->isHidden());
    const Kernel2D sharpen{3, 3, {0, -1, 0, -1, 5, -1, 0, -1, 0}};
    ASSERT_TRUE(panel_.currentChoice().values.kernel.has_value());
    EXPECT_EQ(*panel_.currentChoice().values.kernel, sharpen);

    for (const char* bad : {"1,2;3", "1,x,3", "", ";;"}) {
        edit->setText(QString::fromLatin1(bad));
        EXPECT_FALSE(error->isHidden()) << bad;
        EXPECT_FALSE(error->text().isEmpty()) << bad;
        // The last good kernel stays in effect and nothing is announced.
        EXPECT_EQ(*panel_.currentChoice().values.kernel, sharpen) << bad;
    }
    EXPECT_EQ(spy.count(), 1);

    edit->setText(QStringLiteral("1 2 1"));
    EXPECT_TRUE(error->isHidden());
    EXPECT_EQ(*panel_.currentChoice().values.kernel, (Kernel2D{3, 1, {1, 2, 1}}));
    const FilterChoice saved = panel_.currentChoice();
    EXPECT_NO_THROW(builtinRegistry().get("custom").build(saved.values));

    edit->setText(QStringLiteral("oops"));
    panel_.setChoice(saved);
    EXPECT_TRUE(error->isHidden());
    EXPECT_EQ(edit->text(), QStringLiteral("1,2,1"));
}

TEST_F(FilterPanelTest, EveryFilterBuildsFromItsDefaults)
{
    for (const FilterDesc& desc : builtinRegistry().all()) {
        select(desc.id);
        const FilterChoice choice = panel_.currentChoice();
        EXPECT_EQ(choice.id, desc.id);
        for (const auto& param : desc.params) {
            EXPECT_EQ(choice.values.get(param.key, -1e9), param.defaultValue) << desc.id << "." << param.key;
        }
        EXPECT_NO_THROW(desc.build(choice.values)) << desc.id;
    }
}

TEST_F(FilterPanelTest, TabOrderFollowsTheLayout)
{
    select("gaussian");
    std::vector<QString> names;
    QWidget* widget = filterCombo();
    for (int i = 0; i < 50 && names.size() < 8; ++i) {
        // Spin boxes hand focus to an inner line edit named by Qt; list our controls only.
        const QString name = widget->objectName();
        if ((widget->focusPolicy() & Qt::TabFocus) && !name.isEmpty() && !name.startsWith(QStringLiteral("qt_"))) {
            names.push_back(name);
        }
        widget = widget->nextInFocusChain();
    }
    const std::vector<QString> expected{"filterCombo",       "param_sigma_slider", "param_sigma_spin",
                                        "param_size_slider", "param_size_spin",    "borderCombo",
                                        "borderValueSpin",   "depthCombo"};
    EXPECT_EQ(names, expected);
}

}  // namespace
