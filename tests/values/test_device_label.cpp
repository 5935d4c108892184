// SPDX-License-Identifier: Apache-2.0
#include "values/device_label.h"
#include "values/slot_index.h"
#include "values/timing_stats.h"

#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

namespace tessera::values {
namespace {

DeviceSnapshot h200On(int ordinal)
{
    DeviceSnapshot s;
    DeviceInfo d;
    d.id = DeviceId{ordinal};
    d.name = "NVIDIA H200";
    s.devices.push_back(d);
    return s;
}

TEST(DeviceLabel, ShortFormNamesTheOrdinalOrTheCpu)
{
    EXPECT_EQ(deviceLabel(DeviceId{0}), "GPU 0");
    EXPECT_EQ(deviceLabel(DeviceId{12}), "GPU 12");
    EXPECT_EQ(deviceLabel(DeviceId::cpu()), "CPU");
    EXPECT_EQ(deviceLabel(DeviceId{-5}), "CPU");
    EXPECT_EQ(describe(DeviceId{3}), "GPU 3");
    EXPECT_EQ(describe(DeviceId::cpu()), "CPU");
}

TEST(DeviceLabel, ModelFormsUseTheSnapshotAndFallBackWithoutIt)
{
    const DeviceSnapshot snap = h200On(1);
    EXPECT_EQ(deviceLabel(DeviceId{1}, &snap, LabelForm::WithModel), "GPU 1 (NVIDIA H200)");
    EXPECT_EQ(deviceLabel(DeviceId{1}, &snap, LabelForm::Listing), "GPU 1: NVIDIA H200");
    EXPECT_EQ(deviceLabel(DeviceId{1}, &snap, LabelForm::Model), "NVIDIA H200");
    // A device the snapshot lacks, or no snapshot at all: the short form.
    EXPECT_EQ(deviceLabel(DeviceId{0}, &snap, LabelForm::WithModel), "GPU 0");
    EXPECT_EQ(deviceLabel(DeviceId{1}, nullptr, LabelForm::WithModel), "GPU 1");
    EXPECT_EQ(deviceLabel(DeviceId{1}, nullptr, LabelForm::Listing), "GPU 1");
    EXPECT_EQ(deviceLabel(DeviceId{2}, &snap, LabelForm::Model), "GPU 2");
    EXPECT_EQ(deviceLabel(DeviceId::cpu(), &snap, LabelForm::WithModel), "CPU");
    EXPECT_EQ(deviceLabel(DeviceId::cpu(), &snap, LabelForm::Model), "CPU");
    // The short form never reads the model.
    EXPECT_EQ(deviceLabel(DeviceId{1}, &snap), "GPU 1");
}

TEST(DeviceLabel, AnUnnamedDeviceKeepsTheShortForm)
{
    DeviceSnapshot snap = h200On(0);
    snap.devices.front().name.clear();
    EXPECT_EQ(deviceLabel(DeviceId{0}, &snap, LabelForm::WithModel), "GPU 0");
    EXPECT_EQ(deviceLabel(DeviceId{0}, &snap, LabelForm::Model), "GPU 0");
}

TEST(DeviceLabel, ADeviceAtHandNamesItsOwnModel)
{
    const DeviceSnapshot snap = h200On(2);
    const DeviceInfo& d = snap.devices.front();
    EXPECT_EQ(deviceLabel(d, LabelForm::Listing), "GPU 2: NVIDIA H200");
    EXPECT_EQ(deviceLabel(d, LabelForm::WithModel), "GPU 2 (NVIDIA H200)");
    EXPECT_EQ(deviceLabel(d, LabelForm::Short), "GPU 2");
    EXPECT_EQ(deviceLabel(d, LabelForm::Key), "gpu:2");
}

TEST(DeviceLabel, KeyFormIsTheSettingsSpelling)
{
    const DeviceSnapshot snap = h200On(4);
    EXPECT_EQ(deviceLabel(DeviceId{4}, &snap, LabelForm::Key), "gpu:4");
    EXPECT_EQ(deviceLabel(DeviceId{0}, nullptr, LabelForm::Key), "gpu:0");
    EXPECT_EQ(deviceLabel(DeviceId::cpu(), nullptr, LabelForm::Key), "cpu");
}

TEST(DeviceLabel, DeviceTitleIsTheWithModelForm)
{
    const DeviceSnapshot snap = h200On(0);
    EXPECT_EQ(deviceTitle(DeviceId{0}, snap), deviceLabel(DeviceId{0}, &snap, LabelForm::WithModel));
    EXPECT_EQ(deviceTitle(DeviceId{3}, snap), "GPU 3");
    EXPECT_EQ(deviceTitle(DeviceId::cpu(), snap), "CPU");
}

TEST(DeviceLabel, GpusLabelCountsAndJoins)
{
    EXPECT_EQ(gpusLabel(std::vector<DeviceId>{}), "");
    EXPECT_EQ(gpusLabel(std::vector<DeviceId>{DeviceId{2}}), "GPU 2");
    EXPECT_EQ(gpusLabel(std::vector<DeviceId>{DeviceId{0}, DeviceId{1}, DeviceId{3}}), "GPUs 0,1,3");
    EXPECT_EQ(gpusLabel(std::vector<DeviceId>{DeviceId{0}, DeviceId{1}}, ", "), "GPUs 0, 1");
}

TEST(SlotIndex, IsItsOwnTypeAndOrdersByPosition)
{
    static_assert(!std::is_convertible_v<int, SlotIndex>, "no implicit int -> SlotIndex");
    static_assert(!std::is_convertible_v<SlotIndex, DeviceId>, "a slot is not a device");
    static_assert(!std::is_convertible_v<DeviceId, SlotIndex>, "a device is not a slot");
    EXPECT_EQ(SlotIndex{}.value(), 0u);
    EXPECT_EQ(SlotIndex{7}.value(), 7u);
    EXPECT_LT(SlotIndex{1}, SlotIndex{2});
    EXPECT_EQ(SlotIndex{3}, SlotIndex{3});
    EXPECT_NE(SlotIndex{3}, SlotIndex{4});
}

}  // namespace
}  // namespace tessera::values
