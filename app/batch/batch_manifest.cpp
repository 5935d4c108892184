// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_manifest.h"

#include "app/batch/batch_json.h"
#include "app/batch/batch_report.h"
#include "gpu/device_info.h"

#include <QCryptographicHash>
#include <QFile>

#include <stdexcept>

namespace tessera::app {

ManifestContext ManifestContext::collect(const BatchPlan& plan, const BatchJob& job)
{
    ManifestContext context;
    context.chain = plan.chain;
    context.nameTemplate = job.nameTemplate;
    context.policy = toString(job.policy);
    context.date = plan.date;
    context.versions = collectVersions(gpu::enumerateDevices());
    return context;
}

std::string manifestPath(const std::string& output)
{
    return output + ".json";
}

void writeManifest(const ManifestContext& context, const FileResult& result, const std::string& inputSha256)
{
    nlohmann::ordered_json doc;
    doc["input"] = result.input;
    doc["input_sha256"] = inputSha256;
    doc["output"] = result.output;
    doc["filters"] = chainJson(context.chain);
    doc["border"] = context.chain.steps.empty() ? std::string() : filters::toString(context.chain.steps.front().border);
    doc["device"] = result.device;
    doc["metadata_kept"] = result.metadata;
    if (!result.orientation.empty()) {
        doc["orientation_applied"] = result.orientation;
    }
    doc["timings_ms"] = {{"decode", result.decodeMs}, {"compute", result.computeMs}, {"encode", result.encodeMs}};
    doc["name_template"] = context.nameTemplate;
    doc["policy"] = context.policy;
    doc["date"] = context.date;
    doc["versions"] = versionsJson(context.versions);

    saveTextFile(manifestPath(result.output), doc.dump(2) + "\n");
}

std::string sha256File(const std::string& path)
{
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly)) {
        throw std::runtime_error(path + ": cannot read the file to hash it: " + file.errorString().toStdString());
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file)) {
        throw std::runtime_error(path + ": cannot read the file to hash it");
    }
    return hash.result().toHex().toStdString();
}

}  // namespace tessera::app
