// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace tessera::ui {
class MainWindow;
}  // namespace tessera::ui

namespace tessera::app {

/// Answers the Profiler dock's export requests: writes the records it shows (with its devices'
/// names) in the chosen format, then reports success or the error in window's status bar or an
/// error box. window must outlive the connection (it owns the dock, so it does).
void connectProfilerExport(ui::MainWindow& window);

}  // namespace tessera::app
