// SPDX-License-Identifier: Apache-2.0
// Presets: JSON and file round trips, the single-kernel form, chain-level settings, and every
// validation message.

#include "filters/factories.h"
#include "filters/preset_io.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <random>

namespace tessera::filters {
namespace {

namespace fs = std::filesystem;

PresetStep registryStep(const std::string& id, std::map<std::string, double> values)
{
    PresetStep step;
    step.id = id;
    step.params.values = std::move(values);
    step.spec = builtinRegistry().get(id).build(step.params);
    return step;
}

// A preset that touches every filter and every per-step setting.
Preset richPreset()
{
    Preset preset;
    preset.name = "everything [v2] \"quoted\", {braces}";
    preset.description = "one of each";
    for (const auto& desc : builtinRegistry().all()) {
        if (desc.id != "custom") {
            preset.steps.push_back(registryStep(desc.id, desc.defaults().values));
        }
    }
    preset.steps.push_back(registryStep("gaussian", {{"sigma", 0.7}}));  // partial values
    preset.steps.push_back(registryStep("prewitt", {{"direction", 1}}));
    preset.steps.push_back(registryStep("box", {{"size", 4}, {"normalize", 0}}));
    PresetStep& tuned = preset.steps.back();
    tuned.spec.border = Border::Constant;
    tuned.spec.borderValue = 12.5;
    tuned.spec.scale = 0.1;
    tuned.spec.offset = -3.0;
    tuned.spec.depth = OutputDepth::F32;

    PresetStep custom;
    custom.id = "custom";
    custom.params.kernel = Kernel2D{2, 3, {0.1, -0.2, 1.0 / 3.0, 4e-7, 5.0, -6.0}};
    custom.params.anchor = Point{1, 2};
    custom.params.values["normalize"] = 1.0;
    custom.spec = builtinRegistry().get("custom").build(custom.params);
    custom.spec.border = Border::Wrap;
    custom.spec.depth = OutputDepth::U16;
    preset.steps.push_back(custom);

    PresetStep anchored = registryStep("sobel", {{"dx", 0}, {"dy", 1}, {"size", 5}});
    anchored.params.anchor = Point{0, 0};
    anchored.spec = builtinRegistry().get("sobel").build(anchored.params);
    preset.steps.push_back(anchored);
    return preset;
}

TEST(PresetIo, RoundTripsThroughJson)
{
    const Preset preset = richPreset();
    const std::string text = presetToJson(preset);
    const Preset back = parsePreset(text, "memory", builtinRegistry());
    EXPECT_EQ(back, preset) << text;
    EXPECT_EQ(back.chain(), preset.chain());
    EXPECT_EQ(presetToJson(back), text);
}

TEST(PresetIo, RoundTripsThroughAFile)
{
    const fs::path folder =
        fs::temp_directory_path() / ("tessera_preset_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(folder);
    const std::string path = (folder / "rich.json").string();
    const Preset preset = richPreset();
    savePreset(preset, path);
    EXPECT_EQ(loadPreset(path, builtinRegistry()), preset);

    // Saving again replaces the file and leaves no temporary behind.
    Preset renamed = preset;
    renamed.name = "renamed";
    savePreset(renamed, path);
    EXPECT_EQ(loadPreset(path, builtinRegistry()).name, "renamed");
    int files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder)) {
        ++files;
    }
    EXPECT_EQ(files, 1);
    fs::remove_all(folder);
}

TEST(PresetIo, FileErrorsNameTheFile)
{
    const fs::path folder =
        fs::temp_directory_path() / ("tessera_preset_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(folder);
    const std::string missing = (folder / "missing.json").string();
    try {
        loadPreset(missing, builtinRegistry());
        ADD_FAILURE() << "expected PresetError";
    } catch (const PresetError& e) {
        EXPECT_EQ(std::string(e.what()), missing + ": file not found");
    }
    try {
        loadPreset(folder.string(), builtinRegistry());
        ADD_FAILURE() << "expected PresetError";
    } catch (const PresetError& e) {
        EXPECT_EQ(std::string(e.what()), folder.string() + ": is a directory, not a preset file");
    }
    const std::string nowhere = (folder / "no_such_folder" / "x.json").string();
    EXPECT_THROW(savePreset(richPreset(), nowhere), PresetError);

    const std::string bad = (folder / "bad.json").string();
    std::ofstream(bad) << R"({"filters": [{"id": "blur"}]})";
    try {
        loadPreset(bad, builtinRegistry());
        ADD_FAILURE() << "expected PresetError";
    } catch (const PresetError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(bad + ": filters[0].id: unknown filter 'blur'", 0), 0u) << e.what();
    }
    fs::remove_all(folder);
}

// A FIFO would block the reader forever and a device like /dev/zero never ends; an oversized
// file is refused before it is read.
TEST(PresetIo, OnlyPlainFilesOfABoundedSizeAreRead)
{
    const fs::path folder =
        fs::temp_directory_path() / ("tessera_preset_fifo_" + std::to_string(std::random_device{}()));
    fs::create_directories(folder);
    const std::string fifo = (folder / "stack.json").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto expectRefused = [](const std::string& path, const std::string& words) {
        try {
            loadPreset(path, builtinRegistry());
            ADD_FAILURE() << "expected PresetError for " << path;
        } catch (const PresetError& e) {
            EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    expectRefused(fifo, "not a regular file");
    expectRefused("/dev/zero", "not a regular file");
    const std::string big = (folder / "big.json").string();
    {
        std::ofstream out(big);
        out << R"({"filters": [{"id": "box"}]})" << std::string(kMaxPresetBytes, ' ');
    }
    expectRefused(big, "at most");
    fs::remove_all(folder);
}

TEST(PresetIo, ChainLengthIsBounded)
{
    std::string many = R"({"filters": [)";
    for (std::size_t i = 0; i <= kMaxChainSteps; ++i) {
        many += std::string(i ? "," : "") + R"({"id": "box", "params": {"size": 3}})";
    }
    many += "]}";
    try {
        parsePreset(many, "long.json", builtinRegistry());
        ADD_FAILURE() << "expected PresetError";
    } catch (const PresetError& e) {
        EXPECT_NE(std::string(e.what()).find("at most " + std::to_string(kMaxChainSteps)), std::string::npos)
            << e.what();
        EXPECT_EQ(std::string(e.what()).rfind("long.json", 0), 0u) << e.what();
    }
}

TEST(PresetIo, ReadsASingleKernelObject)
{
    const Preset p = parsePreset(R"({
        "name": "sharpen 3x3", "size": [3, 3], "anchor": [0, 2],
        "weights": [0, -1, 0, -1, 5, -1, 0, -1, 0],
        "scale": 0.5, "offset": 10, "normalize": true,
        "border": "constant", "border_value": 7, "depth": "f32"})",
                                 "k.json", builtinRegistry());
    EXPECT_EQ(p.name, "sharpen 3x3");
    ASSERT_EQ(p.steps.size(), 1u);
    const PresetStep& s = p.steps[0];
    EXPECT_EQ(s.id, "custom");
    EXPECT_EQ(s.spec.kernel, parseInlineKernel("0,-1,0;-1,5,-1;0,-1,0"));  // sum is 1 already
    EXPECT_EQ(s.spec.anchor, (Point{0, 2}));
    EXPECT_EQ(s.spec.scale, 0.5);
    EXPECT_EQ(s.spec.offset, 10.0);
    EXPECT_EQ(s.spec.border, Border::Constant);
    EXPECT_EQ(s.spec.borderValue, 7.0);
    EXPECT_EQ(s.spec.depth, OutputDepth::F32);
    EXPECT_EQ(s.params.values.at("normalize"), 1.0);
}

TEST(PresetIo, ChainSettingsApplyToStepsThatDoNotOverride)
{
    const Preset p = parsePreset(R"({
        "name": "edges", "border": "replicate", "depth": "f32",
        "filters": [
            {"id": "gaussian", "params": {"sigma": 1.5, "size": 0}},
            {"id": "prewitt", "params": {"direction": "vertical"}, "border": "wrap"},
            {"id": "box", "params": {"normalize": "off", "size": 2}},
            {"id": "custom", "size": [1, 2], "weights": [1, -1]}
        ]})",
                                 "chain.json", builtinRegistry());
    ASSERT_EQ(p.steps.size(), 4u);
    EXPECT_EQ(p.steps[0].spec.border, Border::Replicate);
    EXPECT_EQ(p.steps[0].spec.depth, OutputDepth::F32);
    EXPECT_EQ(p.steps[0].spec.kernel, makeGaussian(1.5).kernel);
    EXPECT_EQ(p.steps[1].spec.border, Border::Wrap);
    EXPECT_EQ(p.steps[1].params.values.at("direction"), 1.0);
    EXPECT_EQ(p.steps[2].spec.kernel, makeBox(2, false).kernel);
    EXPECT_EQ(p.steps[3].spec.kernel, (Kernel2D{1, 2, {1.0, -1.0}}));
    EXPECT_EQ(p.steps[3].spec.border, Border::Replicate);
    EXPECT_EQ(p.chain().steps.size(), 4u);
}

void expectPresetError(const std::string& json, const std::string& message)
{
    try {
        parsePreset(json, "my.json", builtinRegistry());
        ADD_FAILURE() << "expected PresetError for " << json;
    } catch (const PresetError& e) {
        EXPECT_EQ(std::string(e.what()), message) << json;
    }
}

TEST(PresetIo, ValidationMessagesNameSourceAndField)
{
    expectPresetError(R"({"filters": [{"id": "box"}, {"id": "custom", "size": [3, 3],
                          "weights": [1, 2, 3, 4, 5, 6, 7, 8]}]})",
                      "my.json: filters[1].weights: expected 9 numbers (3 x 3), got 8");
    expectPresetError(R"({"size": [2, 1], "weights": [1, "2"]})", "my.json: weights[1]: expected a number, got string");
    expectPresetError(R"({"size": [300, 1], "weights": []})", "my.json: size: 300 x 1 is outside 1...255 on a side");
    expectPresetError(R"({"size": [3], "weights": [1, 2, 3]})", "my.json: size: expected [width, height]");
    expectPresetError(R"({"size": [1.5, 1], "weights": [1]})", "my.json: size[0]: expected an integer, got 1.5");
    expectPresetError(R"({"size": [2, 2], "anchor": [2, 0], "weights": [1, 2, 3, 4]})",
                      "my.json: anchor: (2, 0) is outside the 2 x 2 kernel");
    expectPresetError(R"({"size": [2, 2], "weights": [1, 2, 3, 4], "border": "mirror"})",
                      "my.json: border: unknown border 'mirror' (expected reflect101, reflect, "
                      "replicate, constant or wrap)");
    expectPresetError(R"({"size": [1, 1], "weights": [1], "depth": "f64"})",
                      "my.json: depth: unknown output depth 'f64' (expected same, u8, u16 or "
                      "f32)");
    expectPresetError(R"({"size": [1, 1], "weights": [1], "normalize": 1})",
                      "my.json: normalize: expected true or false, got number");
    expectPresetError(R"({"size": [1, 1], "weights": [1], "scale": "big"})",
                      "my.json: scale: expected a number, got string");
    expectPresetError(R"({"name": 5, "size": [1, 1], "weights": [1]})", "my.json: name: expected a string, got number");
    expectPresetError(R"({"size": [1, 1]})", "my.json: weights: missing (expected the kernel's numbers, row by row)");
    expectPresetError(R"({"filters": [{"id": "gaussian", "params": {"sigma": 100}}]})",
                      "my.json: filters[0].params.sigma: value 100 is outside 0.1..40");
    expectPresetError(R"({"filters": [{"id": "box", "params": {"size": 2.5}}]})",
                      "my.json: filters[0].params.size: value 2.5 is not an integer");
    expectPresetError(R"({"filters": [{"id": "prewitt", "params": {"direction": "up"}}]})",
                      "my.json: filters[0].params.direction: value 'up' is not one of "
                      "horizontal, vertical");
    expectPresetError(R"({"filters": [{"id": "box", "params": {"radius": 2}}]})",
                      "my.json: filters[0].params.radius: filter 'box' has no parameter "
                      "'radius' (parameters: size, normalize)");
    expectPresetError(R"({"filters": [{"id": "box", "params": {"size": [2]}}]})",
                      "my.json: filters[0].params.size: expected a number, got array");
    expectPresetError(R"({"filters": [{"id": "gaussian", "params": {"size": 4}}]})",
                      "my.json: filters[0]: gaussian: size must be 0 (from sigma) or odd "
                      "1..255, got 4");
    expectPresetError(R"({"filters": [{"id": "sobel", "params": {"dx": 0, "dy": 0}}]})",
                      "my.json: filters[0]: sobel: dx + dy must be at least 1");
    expectPresetError(R"({"filters": [{"id": "box", "boder": "wrap"}]})", "my.json: filters[0].boder: unknown field");
    expectPresetError(R"({"filters": [{"params": {}}]})", "my.json: filters[0]: missing field \"id\"");
    expectPresetError(R"({"filters": [{"id": 3}]})", "my.json: filters[0].id: expected a string, got number");
    expectPresetError(R"({"filters": [{"id": "box", "params": []}]})",
                      "my.json: filters[0].params: expected an object, got array");
    expectPresetError(R"({"filters": [7]})", "my.json: filters[0]: expected an object, got number");
    expectPresetError(R"({"filters": {}})", "my.json: filters: expected an array, got object");
    expectPresetError(R"({"filters": []})", "my.json: filters: expected at least one filter");
    expectPresetError(R"({"filters": [{"id": "box"}], "border": "mirror"})",
                      "my.json: border: unknown border 'mirror' (expected reflect101, reflect, "
                      "replicate, constant or wrap)");
    expectPresetError(R"({"filters": [{"id": "box"}], "scale": 2})", "my.json: scale: unknown field");
    expectPresetError(R"({"filters": [{"id": "custom", "size": [2, 2], "weights": [1, 2, 3, 4],
                          "anchor": [0, 9]}]})",
                      "my.json: filters[0].anchor: (0, 9) is outside the 2 x 2 kernel");
    expectPresetError(R"({"filters": [{"id": "box", "anchor": [5, 0]}]})",
                      "my.json: filters[0]: box: anchor (5, 0) is outside the 3 x 3 kernel");
    expectPresetError(R"({"name": "nothing"})",
                      "my.json: expected \"filters\" (a chain) or \"size\" and \"weights\" (a "
                      "single kernel)");
    expectPresetError(R"([1, 2])", "my.json: expected a JSON object, got array");
    expectPresetError(R"({"size": [1, 1], "weights": [1], "id": "box"})",
                      "my.json: id: a single kernel object takes no id other than \"custom\"");
}

TEST(PresetIo, UnknownFilterAndBadJson)
{
    try {
        parsePreset(R"({"filters": [{"id": "box"}, {"id": "blurr"}]})", "my.json", builtinRegistry());
        ADD_FAILURE() << "expected PresetError";
    } catch (const PresetError& e) {
        EXPECT_EQ(std::string(e.what()), "my.json: filters[1].id: unknown filter 'blurr' (known: identity, box, "
                                         "gaussian, sharpen, unsharp, laplacian, log, sobel, scharr, prewitt, emboss, "
                                         "motion_blur, custom)");
    }
    try {
        parsePreset("{\"filters\": [", "my.json", builtinRegistry());
        ADD_FAILURE() << "expected PresetError";
    } catch (const PresetError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("my.json: invalid JSON: parse error at line 1", 0), 0u) << what;
    }
}

// A number beyond double's range made nlohmann throw out_of_range, which escaped parsePreset
// without the file's name (found by fuzz_preset: tests/fuzz/regressions/fuzz_preset).
TEST(PresetIo, NumbersOutOfRangeArePresetErrorsNamingTheFile)
{
    for (const std::string& text :
         {std::string(R"({"size": [1, 1], "weights": [1e999]})"), std::string("555555555.55e5937w{.15")}) {
        try {
            parsePreset(text, "big.json", builtinRegistry());
            ADD_FAILURE() << "no PresetError for " << text;
        } catch (const PresetError& e) {
            const std::string what = e.what();
            EXPECT_EQ(what.rfind("big.json: invalid JSON: ", 0), 0u) << what;
            EXPECT_EQ(what.find("[json.exception"), std::string::npos) << what;
        }
    }
}

}  // namespace
}  // namespace tessera::filters
