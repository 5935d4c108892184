// SPDX-License-Identifier: Apache-2.0
#include "ui/about_info.h"

#include <QStringList>

namespace tessera::ui {

namespace {

QString orUnknown(const QString& value)
{
    return value.isEmpty() ? QStringLiteral("unknown") : value.toHtmlEscaped();
}

QString row(const QString& label, const QString& value)
{
    return QStringLiteral("<tr><td>%1</td><td>&nbsp;&nbsp;%2</td></tr>").arg(label, orUnknown(value));
}

}  // namespace

QString formatAboutText(const AboutInfo& info)
{
    // Device lines are plain text from app/; escape them and keep their line breaks.
    QStringList deviceLines;
    for (const QString& line : info.devices.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        deviceLines << line.toHtmlEscaped();
    }
    const QString devices =
        deviceLines.isEmpty() ? QStringLiteral("unknown") : deviceLines.join(QStringLiteral("<br>"));

    return QStringLiteral("<h3>Tessera %1</h3>"
                          "<p>2D image convolution on CUDA GPUs, with an OpenCV CPU path.</p>"
                          "<table>%2%3%4%5%6</table>"
                          "<p><b>Devices</b><br>%7</p>")
        .arg(orUnknown(info.tessera), row(QStringLiteral("Qt"), info.qt), row(QStringLiteral("OpenCV"), info.opencv),
             row(QStringLiteral("CUDA runtime"), info.cudaRuntime), row(QStringLiteral("CUDA driver"), info.cudaDriver),
             row(QStringLiteral("cuFFT"), info.cufft), devices);
}

}  // namespace tessera::ui
