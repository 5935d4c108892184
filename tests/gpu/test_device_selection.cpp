// SPDX-License-Identifier: Apache-2.0
#include "values/device_id.h"
#include "values/device_selection.h"

#include <gtest/gtest.h>

#include <type_traits>
#include <unordered_set>

namespace tessera::values {
namespace {

using Kind = DeviceSelection::Kind;

std::vector<DeviceId> ids(std::initializer_list<int> values)
{
    std::vector<DeviceId> out;
    for (const int v : values) {
        out.emplace_back(v);
    }
    return out;
}

/// The message parseDeviceSelection gives for text, or "" when it parses.
std::string parseError(const std::string& text, const SelectionContext& context = {})
{
    try {
        parseDeviceSelection(text, context);
    } catch (const DeviceSelectionError& e) {
        EXPECT_EQ(e.text(), text);
        return e.what();
    }
    return {};
}

DeviceSnapshot machineWith(int gpus)
{
    DeviceSnapshot snapshot;
    for (int i = 0; i < gpus; ++i) {
        snapshot.devices.push_back({});
        snapshot.devices.back().id = DeviceId{i};
        snapshot.devices.back().name = "Fake GPU";
    }
    if (gpus == 0) {
        snapshot.reason = "no CUDA driver";
    }
    return snapshot;
}

TEST(DeviceId, IsAStrongValue)
{
    static_assert(!std::is_convertible_v<int, DeviceId>, "a bare int must not become a DeviceId silently");
    static_assert(!std::is_convertible_v<DeviceId, int>);
    EXPECT_TRUE(DeviceId{}.isCpu());
    EXPECT_EQ(DeviceId{}, DeviceId::cpu());
    EXPECT_EQ(DeviceId{-5}, DeviceId::cpu());
    EXPECT_EQ(DeviceId{3}.value(), 3);
    EXPECT_FALSE(DeviceId{0}.isCpu());
    EXPECT_LT(DeviceId::cpu(), DeviceId{0});
    EXPECT_LT(DeviceId{1}, DeviceId{2});
    EXPECT_EQ(describe(DeviceId{2}), "GPU 2");
    EXPECT_EQ(describe(DeviceId::cpu()), "CPU");
    const std::unordered_set<DeviceId> set{DeviceId{0}, DeviceId{1}, DeviceId{0}};
    EXPECT_EQ(set.size(), 2u);
}

TEST(DeviceSelection, EveryFormRoundTripsThroughItsText)
{
    const std::vector<DeviceSelection> all{DeviceSelection::automatic(),
                                           DeviceSelection::cpu(),
                                           DeviceSelection::allGpus(),
                                           DeviceSelection::all(),
                                           DeviceSelection::each(),
                                           DeviceSelection::gpu(DeviceId{0}),
                                           DeviceSelection::gpu(DeviceId{12}),
                                           DeviceSelection::gpus(ids({0, 2})),
                                           DeviceSelection::gpus(ids({3, 1, 2})),
                                           DeviceSelection::gpu(DeviceId{9999})};
    for (const DeviceSelection& s : all) {
        EXPECT_EQ(parseDeviceSelection(toString(s)), s) << toString(s);
    }
    const std::vector<std::string> canonical{"auto",  "cpu",    "gpu",     "all",      "each",
                                             "gpu:0", "gpu:12", "gpu:0,2", "gpu:3,1,2"};
    for (const std::string& text : canonical) {
        EXPECT_EQ(toString(parseDeviceSelection(text)), text);
    }
    EXPECT_EQ(DeviceSelection{}, DeviceSelection::automatic());
}

TEST(DeviceSelection, KeepsTheListsOrderAndKind)
{
    const DeviceSelection s = parseDeviceSelection("gpu:2,0");
    EXPECT_EQ(s.kind(), Kind::Gpus);
    EXPECT_EQ(s.ids(), ids({2, 0}));
    EXPECT_NE(s, parseDeviceSelection("gpu:0,2"));
    EXPECT_EQ(parseDeviceSelection("gpu").kind(), Kind::AllGpus);
    EXPECT_EQ(parseDeviceSelection("all").kind(), Kind::All);
    EXPECT_EQ(parseDeviceSelection("each").kind(), Kind::Each);
    EXPECT_TRUE(parseDeviceSelection("auto").ids().empty());
}

TEST(DeviceSelection, LeadingZerosReadAsTheirCanonicalSpelling)
{
    EXPECT_EQ(toString(parseDeviceSelection("gpu:00")), "gpu:0");
    EXPECT_EQ(toString(parseDeviceSelection("gpu:007,1")), "gpu:7,1");
}

TEST(DeviceSelection, RefusesBadTextNamingIt)
{
    for (const std::string text : {"", "tpu", "GPU", "Auto", " cpu", "cpu ", "gpus", "gpu0", "each,cpu"}) {
        const std::string message = parseError(text);
        EXPECT_NE(message.find("'" + text + "'"), std::string::npos) << message;
        EXPECT_NE(message.find("expects auto, cpu, gpu, gpu:N[,M...], all or each"), std::string::npos) << message;
    }
    for (const std::string text :
         {"gpu:a", "gpu:-1", "gpu:1x", "gpu:1,,2", "gpu:1,", "gpu:,1", "gpu: 0", "gpu:0 ,2", "gpu:12345"}) {
        EXPECT_EQ(parseError(text), "device selection: '" + text + "' is not a list of GPU numbers");
    }
    EXPECT_EQ(parseError("gpu:"), "device selection: 'gpu:' names no GPU");
    EXPECT_EQ(parseError("gpu:0,0"), "device selection: 'gpu:0,0' names GPU 0 twice");
    EXPECT_EQ(parseError("gpu:1,2,1"), "device selection: 'gpu:1,2,1' names GPU 1 twice");
}

TEST(DeviceSelection, ErrorsAreInvalidArguments)
{
    // The CLI maps std::invalid_argument to a usage error (exit code 2).
    EXPECT_THROW(parseDeviceSelection("tpu"), std::invalid_argument);
    EXPECT_THROW(DeviceSelection::gpus({}), DeviceSelectionError);
    EXPECT_THROW(DeviceSelection::gpus(ids({1, 1})), DeviceSelectionError);
    EXPECT_THROW(DeviceSelection::gpu(DeviceId::cpu()), DeviceSelectionError);
}

TEST(DeviceSelection, TheDeviceOptionKeepsItsMessages)
{
    // As apply and batch have always worded them (and the CLI tests look for).
    EXPECT_EQ(parseError("tpu", kDeviceOption), "--device expects auto, cpu, gpu, gpu:N[,M...] or all, got 'tpu'");
    EXPECT_EQ(parseError("gpu:x", kDeviceOption), "--device: 'gpu:x' is not a list of GPU numbers");
    EXPECT_EQ(parseError("gpu:", kDeviceOption), "--device: 'gpu:' names no GPU");
    EXPECT_EQ(parseError("each", kDeviceOption), "--device expects auto, cpu, gpu, gpu:N[,M...] or all, got 'each'");
}

TEST(DeviceSelection, AContextRefusesTheFormsItDoesNotTake)
{
    EXPECT_EQ(parseError("gpu:0,1", kPreviewPreference), "engine/device expects auto, cpu or gpu:N, got 'gpu:0,1'");
    for (const std::string text : {"gpu", "all", "each"}) {
        EXPECT_EQ(parseError(text, kPreviewPreference), "engine/device expects auto, cpu or gpu:N, got '" + text + "'");
    }
    for (const std::string text : {"auto", "gpu"}) {
        EXPECT_EQ(parseError(text, kCompareDevices),
                  "--devices expects cpu, gpu:N[,M...], all or each, got '" + text + "'");
    }
    EXPECT_EQ(parseDeviceSelection("gpu:3", kPreviewPreference), DeviceSelection::gpu(DeviceId{3}));
    EXPECT_EQ(parseDeviceSelection("each", kCompareDevices), DeviceSelection::each());

    EXPECT_NO_THROW(requireAccepted(DeviceSelection::cpu(), kPreviewPreference));
    EXPECT_THROW(requireAccepted(DeviceSelection::all(), kPreviewPreference), DeviceSelectionError);
}

TEST(DeviceSelection, DescribesFormsInOneOrder)
{
    EXPECT_EQ(describeForms(DeviceForm::Any), "auto, cpu, gpu, gpu:N[,M...], all or each");
    EXPECT_EQ(describeForms(DeviceForm::Cpu), "cpu");
    EXPECT_EQ(describeForms(DeviceForm::Cpu | DeviceForm::GpuList), "cpu or gpu:N,M[,...]");
    EXPECT_EQ(describeForms(DeviceForm::None), "nothing");
    EXPECT_EQ(formOf(DeviceSelection::gpu(DeviceId{1})), DeviceForm::OneGpu);
    EXPECT_EQ(formOf(DeviceSelection::gpus(ids({0, 1}))), DeviceForm::GpuList);
    EXPECT_EQ(formOf(DeviceSelection::each()), DeviceForm::Each);
}

TEST(DeviceSelectionResolve, WithoutAGpu)
{
    const DeviceSnapshot none = machineWith(0);
    std::string note;
    EXPECT_TRUE(resolve(DeviceSelection::cpu(), none, note, kDeviceOption).empty());
    EXPECT_TRUE(note.empty());
    EXPECT_TRUE(resolve(DeviceSelection::automatic(), none, note, kDeviceOption).empty());
    EXPECT_EQ(note, "no GPU (no CUDA driver); ran on the CPU");
    try {
        resolve(DeviceSelection::allGpus(), none, note, kDeviceOption);
        ADD_FAILURE() << "gpu resolved without a GPU";
    } catch (const DeviceUnavailableError& e) {
        EXPECT_STREQ(e.what(), "--device gpu: no GPU is available (no CUDA driver); use --device cpu or auto");
    }
    EXPECT_THROW(resolve(DeviceSelection::all(), none, note, kDeviceOption), DeviceUnavailableError);
    EXPECT_THROW(resolve(DeviceSelection::gpu(DeviceId{0}), none, note, kDeviceOption), DeviceUnavailableError);
    // Comparisons run the CPU beside the GPUs: every and each GPU of none is no GPU, no error.
    EXPECT_TRUE(resolve(DeviceSelection::all(), none, note, kCompareDevices).empty());
    EXPECT_TRUE(resolve(DeviceSelection::each(), none, note, kCompareDevices).empty());
    try {
        resolve(DeviceSelection::gpu(DeviceId{0}), none, note, kCompareDevices);
        ADD_FAILURE() << "gpu:0 resolved without a GPU";
    } catch (const DeviceUnavailableError& e) {
        // --devices takes no auto, so the hint does not offer it.
        EXPECT_STREQ(e.what(), "--devices gpu:0: no GPU is available (no CUDA driver); use --devices cpu");
    }
}

TEST(DeviceSelectionResolve, WithTwoGpus)
{
    const DeviceSnapshot two = machineWith(2);
    std::string note;
    EXPECT_EQ(resolve(DeviceSelection::automatic(), two, note), ids({0, 1}));
    EXPECT_TRUE(note.empty());
    EXPECT_EQ(resolve(DeviceSelection::allGpus(), two, note), ids({0, 1}));
    EXPECT_EQ(resolve(DeviceSelection::all(), two, note), ids({0, 1}));
    EXPECT_EQ(resolve(DeviceSelection::each(), two, note, kCompareDevices), ids({0, 1}));
    EXPECT_EQ(resolve(DeviceSelection::gpus(ids({1, 0})), two, note), ids({1, 0}));
    EXPECT_EQ(resolve(DeviceSelection::gpu(DeviceId{1}), two, note), ids({1}));
    EXPECT_TRUE(resolve(DeviceSelection::cpu(), two, note).empty());
}

TEST(DeviceSelectionResolve, AGpuThatIsNotThere)
{
    const DeviceSnapshot two = machineWith(2);
    std::string note;
    try {
        resolve(parseDeviceSelection("gpu:0,2", kDeviceOption), two, note, kDeviceOption);
        ADD_FAILURE() << "gpu:0,2 resolved on two GPUs";
    } catch (const DeviceUnavailableError& e) {
        EXPECT_STREQ(e.what(), "--device gpu:0,2: there is no GPU 2 (this machine has 2)");
    }
    // A machine fault, not bad input: the CLI exits 1 for it, not 2.
    EXPECT_FALSE((std::is_base_of_v<std::invalid_argument, DeviceUnavailableError>));
    EXPECT_TRUE((std::is_base_of_v<std::runtime_error, DeviceUnavailableError>));
}

TEST(DeviceSelectionResolve, AStoredChoiceIsWordedAfterWhereItWasMade)
{
    // The preview's device is chosen in Preferences, not typed: the refusal names that place
    // and offers no option to retype.
    const DeviceSnapshot two = machineWith(2);
    const DeviceSnapshot none = machineWith(0);
    std::string note;
    EXPECT_EQ(resolve(DeviceSelection::gpu(DeviceId{1}), two, note, kPreviewPreference), ids({1}));
    try {
        resolve(DeviceSelection::gpu(DeviceId{7}), two, note, kPreviewPreference);
        ADD_FAILURE() << "GPU 7 resolved on two GPUs";
    } catch (const DeviceUnavailableError& e) {
        EXPECT_STREQ(e.what(), "GPU 7 (chosen in Preferences) is not present");
    }
    EXPECT_TRUE(resolve(DeviceSelection::automatic(), none, note, kPreviewPreference).empty());
    EXPECT_EQ(note, "no GPU: no CUDA driver");
    try {
        resolve(DeviceSelection::gpu(DeviceId{0}), none, note, kPreviewPreference);
        ADD_FAILURE() << "GPU 0 resolved without a GPU";
    } catch (const DeviceUnavailableError& e) {
        EXPECT_STREQ(e.what(), "GPU 0 (chosen in Preferences) is not present");
    }
}

TEST(DeviceSelection, SelectionOfAResolvedList)
{
    EXPECT_EQ(selectionOf({}), DeviceSelection::cpu());
    EXPECT_EQ(toString(selectionOf(ids({0, 1}))), "gpu:0,1");
}

}  // namespace
}  // namespace tessera::values
