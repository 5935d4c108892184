// SPDX-License-Identifier: Apache-2.0
// A number typed above a field's maximum is clamped to the maximum where it can be seen, not
// cut to its first digits ("50" used to become 5 when the maximum was 20); tooltips give ranges.

#include "filters/registry.h"
#include "ui/filter_panel.h"
#include "ui/param_row.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QLocale>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

#include <cmath>

namespace {

using tessera::ui::FilterPanel;

class ParamFieldsTest : public testing::Test {
protected:
    void SetUp() override
    {
        panel_.setFilters(tessera::filters::builtinRegistry().all());
        panel_.show();
        panel_.activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(&panel_));
    }

    template <typename Spin>
    void type(Spin* spin, const QString& text)
    {
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, text);
        QTest::keyClick(spin, Qt::Key_Return);
    }

    FilterPanel panel_;
};

TEST_F(ParamFieldsTest, ATypedSigmaAboveTheMaximumIsClampedToIt)
{
    auto* sigma = panel_.findChild<QDoubleSpinBox*>(QStringLiteral("param_sigma_spin"));
    ASSERT_NE(sigma, nullptr);
    const double max = sigma->maximum();
    ASSERT_LT(max, 500.0);
    type(sigma, QString::number(max * 10.0));
    EXPECT_DOUBLE_EQ(sigma->value(), max);
    EXPECT_TRUE(sigma->toolTip().contains(QStringLiteral("range"))) << sigma->toolTip().toStdString();

    type(sigma, QStringLiteral("1.5"));
    EXPECT_DOUBLE_EQ(sigma->value(), 1.5);
}

TEST_F(ParamFieldsTest, ATypedSizeAboveTheMaximumIsClampedToIt)
{
    auto* combo = panel_.findChild<QComboBox*>(QStringLiteral("filterCombo"));
    combo->setCurrentIndex(combo->findData(QStringLiteral("box")));
    auto* size = panel_.findChild<QSpinBox*>(QStringLiteral("param_size_spin"));
    ASSERT_NE(size, nullptr);
    type(size, QString::number(size->maximum() * 10));
    EXPECT_EQ(size->value(), size->maximum());
}

TEST_F(ParamFieldsTest, SmallSigmasGetAGoodPartOfTheSliderTravel)
{
    auto* slider = panel_.findChild<QSlider*>(QStringLiteral("param_sigma_slider"));
    auto* sigma = panel_.findChild<QDoubleSpinBox*>(QStringLiteral("param_sigma_spin"));
    ASSERT_NE(slider, nullptr);
    ASSERT_NE(sigma, nullptr);
    const auto positionFor = [&](double value) {
        sigma->setValue(value);
        return slider->value();
    };
    const int travel = slider->maximum() - slider->minimum();
    const int small = positionFor(3.0) - positionFor(0.3);
    EXPECT_GT(small, travel * 3 / 10) << "0.3 to 3 takes " << small << " of " << travel;
    // Equal ratios take equal travel, and the ends still reach the range's ends.
    EXPECT_NEAR(positionFor(30.0) - positionFor(3.0), small, 2);
    slider->setValue(slider->minimum());
    EXPECT_DOUBLE_EQ(sigma->value(), sigma->minimum());
    slider->setValue(slider->maximum());
    EXPECT_DOUBLE_EQ(sigma->value(), sigma->maximum());
    // One arrow step at the bottom of the range moves sigma by about its step, not by a jump.
    slider->setValue(slider->minimum());
    slider->triggerAction(QAbstractSlider::SliderSingleStepAdd);
    EXPECT_GT(sigma->value(), sigma->minimum());
    EXPECT_LE(sigma->value(), sigma->minimum() + 2.0 * sigma->singleStep());
}

TEST_F(ParamFieldsTest, EveryNumericFieldGivesItsRangeInItsTooltip)
{
    auto* combo = panel_.findChild<QComboBox*>(QStringLiteral("filterCombo"));
    ASSERT_NE(combo, nullptr);
    int checked = 0;
    for (int i = 0; i < combo->count(); ++i) {
        combo->setCurrentIndex(i);
        const std::string id = combo->itemData(i).toString().toStdString();
        for (const auto& p : tessera::filters::builtinRegistry().get(id).params) {
            if (p.type != tessera::filters::ParamType::Int && p.type != tessera::filters::ParamType::Double) {
                continue;
            }
            auto* spin = panel_.findChild<QAbstractSpinBox*>(QString::fromStdString("param_" + p.key + "_spin"));
            ASSERT_NE(spin, nullptr) << id << "." << p.key;
            const QString range =
                QStringLiteral("%1 \u2013 %2").arg(QLocale().toString(p.minValue), QLocale().toString(p.maxValue));
            EXPECT_TRUE(spin->toolTip().contains(range, Qt::CaseInsensitive))
                << id << "." << p.key << ": " << spin->toolTip().toStdString();
            ++checked;
        }
    }
    EXPECT_GT(checked, 5);
}

TEST(ParamSliderScale, RatioScaleOnlyForWidePositiveDecimalRanges)
{
    const auto& registry = tessera::filters::builtinRegistry();
    const auto paramOf = [&](const char* filter, const char* key) {
        for (const auto& p : registry.get(filter).params) {
            if (p.key == key) {
                return p;
            }
        }
        ADD_FAILURE() << filter << "." << key;
        return tessera::filters::ParamDesc{};
    };
    const auto sigma = paramOf("gaussian", "sigma");
    EXPECT_TRUE(tessera::ui::usesLogScale(sigma));
    EXPECT_NEAR(tessera::ui::sliderValueAt(sigma, FilterPanel::kDoubleSliderSteps / 2),
                std::sqrt(sigma.minValue * sigma.maxValue), 1e-9);
    // Ranges from 0 or through 0 keep equal steps.
    EXPECT_FALSE(tessera::ui::usesLogScale(paramOf("unsharp", "amount")));
    EXPECT_FALSE(tessera::ui::usesLogScale(paramOf("emboss", "angle")));
    EXPECT_NEAR(tessera::ui::sliderValueAt(paramOf("emboss", "angle"), FilterPanel::kDoubleSliderSteps / 2), 0.0, 1e-9);
}

}  // namespace
