// SPDX-License-Identifier: Apache-2.0
#include "app/gui/preview_status.h"

#include <QCoreApplication>

namespace tessera::app {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("tessera::app::GuiController", text);
}

}  // namespace

QString previewStatusText(const PreviewResult& result, const values::Rect& image)
{
    QString status = tr("Preview: %1").arg(result.device);
    if (!result.methods.isEmpty()) {
        status += QStringLiteral(", ") + result.methods;
    }
    status += QStringLiteral(", %1 ms").arg(result.milliseconds, 0, 'f', result.milliseconds < 10 ? 2 : 0);
    // The first run's set-up (threads, buffers) is not filtering time: said apart, when it counts.
    if (result.setupMs >= 5.0 && result.setupMs >= 0.5 * result.milliseconds) {
        status += tr(" (+%1 ms set-up)").arg(result.setupMs, 0, 'f', 0);
    }
    if (result.reduce > 1) {
        status += tr(", fit view 1:%1").arg(result.reduce);
    } else if (result.region != image) {
        status += tr(", view %1 \u00d7 %2").arg(result.region.width).arg(result.region.height);
    }
    // "No GPU" is already in the status bar's compute label; a GPU that failed is news, and so
    // is the CPU running because of Preferences.
    if (result.note.startsWith(QStringLiteral("GPU failed")) || result.note.contains(QStringLiteral("Preferences"))) {
        status += QStringLiteral(" (%1)").arg(result.note);
    }
    return status;
}

}  // namespace tessera::app
