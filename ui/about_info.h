// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace tessera::ui {

/// What Help > About shows; plain text filled in by app/, empty fields read as "unknown".
struct AboutInfo {
    QString tessera;
    QString qt;
    QString opencv;
    QString cudaRuntime;
    QString cudaDriver;
    QString cufft;
    QString devices;  ///< one line per device, or the reason there is none
};

/// Rich text for the About box: versions as a table, then the device lines.
QString formatAboutText(const AboutInfo& info);

}  // namespace tessera::ui
