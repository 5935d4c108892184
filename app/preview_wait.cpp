#include "app/preview_wait.h"

#include <QEventLoop>

namespace tessera::app {

PreviewResult waitForPreview(Engine& engine, quint64 id)
{
    PreviewResult result;
    QEventLoop loop;
    // Connected after the caller's own handlers, which therefore see the result first.
    QObject::connect(&engine, &Engine::previewReady, &loop, [&result, &loop, id](const PreviewResult& ready) {
        if (ready.id >= id) {
            result = ready;
            loop.quit();
        }
    });
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    return result;
}

}  // namespace tessera::app
