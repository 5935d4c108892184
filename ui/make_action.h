// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAction>
#include <QKeySequence>
#include <QString>

namespace tessera::ui {

/// A menu action named for tests and saved state, with an optional shortcut and status tip.
inline QAction* makeAction(QObject* parent, const QString& text, const QString& name, const QKeySequence& shortcut = {},
                           const QString& tip = {})
{
    auto* action = new QAction(text, parent);
    action->setObjectName(name);
    action->setShortcut(shortcut);
    action->setStatusTip(tip);
    return action;
}

}  // namespace tessera::ui
