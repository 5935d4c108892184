// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to app/: text helpers shared by the GUI's controllers.

#include <QString>

#include <exception>
#include <string>

namespace tessera::app {

inline QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

/// e.what() with path in front unless the message already names it.
inline QString namingFile(const QString& path, const std::exception& e)
{
    const QString message = QString::fromUtf8(e.what());
    return message.contains(path) ? message : QStringLiteral("%1: %2").arg(path, message);
}

}  // namespace tessera::app
