#pragma once

#include "app/engine.h"

namespace tessera::app {

/// Runs a local event loop (user input held back, timers and queued calls still served) until
/// engine delivers the result of request id or of a newer one, and returns that result. The
/// caller makes sure no newer request supersedes id before it runs, or the wait ends only with
/// the newer one's result. GUI thread only.
PreviewResult waitForPreview(Engine& engine, quint64 id);

}  // namespace tessera::app
