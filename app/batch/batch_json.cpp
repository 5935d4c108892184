// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_json.h"

#include "app/io/path_text.h"

namespace tessera::app {

nlohmann::ordered_json chainJson(const filters::FilterChain& chain)
{
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const filters::FilterSpec& spec : chain.steps) {
        const filters::Point anchor = spec.effectiveAnchor();
        steps.push_back({{"id", spec.id},
                         {"size", {spec.kernel.width, spec.kernel.height}},
                         {"anchor", {anchor.x, anchor.y}},
                         {"weights", spec.kernel.weights},
                         {"separable", spec.separable.has_value()},
                         {"border", filters::toString(spec.border)},
                         {"border_value", spec.borderValue},
                         {"scale", spec.scale},
                         {"offset", spec.offset},
                         {"depth", filters::toString(spec.depth)}});
    }
    return steps;
}

nlohmann::ordered_json versionsJson(const VersionInfo& versions)
{
    return {{"tessera", versions.tessera},
            {"qt", versions.qt},
            {"opencv", versions.opencv},
            {"cuda_runtime", versions.cudaRuntime},
            {"cuda_driver", versions.cudaDriver},
            {"cufft", versions.cufft},
            {"cuda_architectures", versions.cudaArchitectures}};
}

nlohmann::ordered_json fileResultJson(const FileResult& result)
{
    nlohmann::ordered_json file = {{"index", result.index}, {"position", result.position}};
    putPath(file, "input", result.input);
    file["status"] = toString(result.status);
    file["device"] = result.device;
    file["milliseconds"] = result.computeMs;
    file["decode_milliseconds"] = result.decodeMs;
    file["encode_milliseconds"] = result.encodeMs;
    file["decoder"] = result.decoder;
    putPath(file, "output", result.output);
    file["error"] = result.error;  // may name a file whose name is not UTF-8: written through jsonText()
    return file;
}

}  // namespace tessera::app
