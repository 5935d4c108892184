// SPDX-License-Identifier: Apache-2.0
// A number typed above a field's maximum is clamped to the maximum where it can be seen, not
// cut to its first digits ("50" used to become 5 when the maximum was 20); tooltips give ranges.

#include "filters/registry.h"
#include "ui/filter_panel.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>

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

}  // namespace
