// SPDX-License-Identifier: Apache-2.0
#include "app/compare/calibration_cache.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace {

using tessera::app::CalibrationCache;
using tessera::values::DeviceCalibration;

/// Settings in a folder of the test's own, never the user's.
class CalibrationCacheTest : public testing::Test {
protected:
    void SetUp() override
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.path());
        QCoreApplication::setOrganizationName(QStringLiteral("Tessera"));
        QCoreApplication::setApplicationName(QStringLiteral("TesseraCalibrationTests"));
        QSettings().clear();
    }

    QTemporaryDir dir_;
};

TEST_F(CalibrationCacheTest, StoreAndReadBack)
{
    tessera::values::DeviceInfo device;
    device.name = "NVIDIA H200";
    device.pciBusId = "0000:19:00.0";
    const QString key = CalibrationCache::keyFor(device, 13010);
    EXPECT_TRUE(key.contains(QStringLiteral("NVIDIA H200")));
    EXPECT_TRUE(key.contains(QStringLiteral("0000:19:00.0")));
    EXPECT_TRUE(key.contains(QStringLiteral("13010")));
    EXPECT_NE(key, CalibrationCache::keyFor(device, 13020));  // a new driver measures again

    CalibrationCache cache;
    EXPECT_FALSE(cache.cached(key).has_value());
    const DeviceCalibration c{3900.5, 61000.25, 9100.0, "copy; fma; filter"};
    cache.store(key, c);
    ASSERT_TRUE(CalibrationCache().cached(key).has_value());
    EXPECT_EQ(*CalibrationCache().cached(key), c);
    cache.remove(key);
    EXPECT_FALSE(cache.cached(key).has_value());
}

TEST_F(CalibrationCacheTest, MeasuresOnceThenUsesTheCache)
{
    CalibrationCache cache;
    int measured = 0;
    const auto measure = [&] {
        ++measured;
        return DeviceCalibration{10, 20, 30, "fake"};
    };
    const QString key = QStringLiteral("cpu|Fake CPU/with slash|8");
    EXPECT_EQ(cache.measureOrCached(key, measure).filterMpixS, 30);
    EXPECT_EQ(cache.measureOrCached(key, measure).filterMpixS, 30);
    EXPECT_EQ(measured, 1);
    EXPECT_THROW(
        cache.measureOrCached(QStringLiteral("other"), []() -> DeviceCalibration { throw std::runtime_error("x"); }),
        std::runtime_error);
    EXPECT_FALSE(cache.cached(QStringLiteral("other")).has_value());
}

}  // namespace
