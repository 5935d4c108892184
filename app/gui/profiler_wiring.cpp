// SPDX-License-Identifier: Apache-2.0
#include "app/gui/profiler_wiring.h"

#include "app/io/trace_export.h"
#include "ui/main_window.h"
#include "ui/run_docks.h"
#include "ui/profiler_dock.h"

#include <QCoreApplication>
#include <QDir>

#include <exception>

namespace tessera::app {

namespace {

TraceFormat traceFormat(ui::ProfilerDock::ExportFormat format)
{
    switch (format) {
    case ui::ProfilerDock::ExportFormat::Csv: return TraceFormat::Csv;
    case ui::ProfilerDock::ExportFormat::Json: return TraceFormat::Json;
    case ui::ProfilerDock::ExportFormat::ChromeTrace: return TraceFormat::ChromeTrace;
    }
    return TraceFormat::ChromeTrace;
}

QString tr(const char* text)
{
    return QCoreApplication::translate("tessera::app::ProfilerWiring", text);
}

}  // namespace

void connectProfilerExport(ui::MainWindow& window)
{
    ui::ProfilerDock* dock = window.runDocks()->profilerDock();
    QObject::connect(dock, &ui::ProfilerDock::exportRequested, &window,
                     [&window, dock](ui::ProfilerDock::ExportFormat format, const QString& path) {
                         try {
                             writeTrace(path, traceFormat(format), dock->records(), dock->devices());
                             window.showMessage(
                                 tr("Exported %1 timing records as %2 to %3")
                                     .arg(dock->records().size())
                                     .arg(ui::ProfilerDock::formatTitle(format), QDir::toNativeSeparators(path)));
                         } catch (const std::exception& e) {
                             window.showError(tr("Cannot export timing records"), QString::fromUtf8(e.what()));
                         }
                     });
}

}  // namespace tessera::app
