// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_manifest.h"

#include "app/batch/batch_json.h"
#include "app/batch/batch_report.h"
#include "app/io/path_text.h"
#include "tessera/gpu/device_info.h"

#include <QCryptographicHash>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

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
    putPath(doc, "input", result.input);
    doc["input_sha256"] = inputSha256;
    putPath(doc, "output", result.output);
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

    saveTextFile(manifestPath(result.output), jsonText(doc, 2) + "\n");
}

std::string sha256File(const std::string& path)
{
    // Opened by its bytes: through a QString, a name that is not UTF-8 would become another name.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw std::runtime_error(path + ": cannot read the file to hash it: " + std::strerror(errno));
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    std::vector<char> buffer(1 << 16);
    for (;;) {
        const ssize_t n = ::read(fd, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            throw std::runtime_error(path + ": cannot read the file to hash it: " + std::strerror(err));
        }
        if (n == 0) {
            break;
        }
        hash.addData(QByteArrayView(buffer.data(), n));
    }
    ::close(fd);
    return hash.result().toHex().toStdString();
}

}  // namespace tessera::app
