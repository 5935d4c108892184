// SPDX-License-Identifier: Apache-2.0
#include "ui/display_menu.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QSettings>
#include <QSignalBlocker>

#include <tuple>
#include <utility>

namespace tessera::ui {

namespace {

const QString kStretchKey = QStringLiteral("display/stretch");
const QString kAbsoluteKey = QStringLiteral("display/absolute");

/// Two checkable entries of which exactly one is on.
std::pair<QAction*, QAction*> addChoice(QMenu* menu, const char* firstName, const QString& first,
                                        const char* secondName, const QString& second)
{
    auto* group = new QActionGroup(menu);
    QAction* a = menu->addAction(first);
    QAction* b = menu->addAction(second);
    for (auto [action, name] : {std::pair{a, firstName}, std::pair{b, secondName}}) {
        action->setObjectName(QString::fromLatin1(name));
        action->setCheckable(true);
        group->addAction(action);
    }
    return {a, b};
}

}  // namespace

DisplayMenu::DisplayMenu(QMenu* parentMenu, QObject* parent) : QObject(parent)
{
    QMenu* menu = parentMenu->addMenu(tr("&Display Mapping"));
    menu->setObjectName(QStringLiteral("displayMappingMenu"));
    menu->setToolTipsVisible(true);
    menu->addSection(tr("16-bit and float range"));
    std::tie(stretch_, fullRange_) = addChoice(menu, "actionDisplayStretch", tr("&Stretch Data Min\u2013Max"),
                                               "actionDisplayFullRange", tr("&Full Range of the Type"));
    stretch_->setToolTip(tr("The lowest value of the data shows black, the highest white"));
    fullRange_->setToolTip(tr("16-bit: 0 to 65535; float: 0 to 1 (-1 to 1 for negative data)"));
    menu->addSection(tr("Negative values"));
    std::tie(offset_, absolute_) = addChoice(menu, "actionDisplayOffset", tr("&Offset (0 at Mid-Grey)"),
                                             "actionDisplayAbsolute", tr("&Absolute Value"));
    QSettings settings;
    setOptions(
        DisplayOptions{settings.value(kStretchKey, true).toBool(), settings.value(kAbsoluteKey, false).toBool()});
    for (QAction* action : {stretch_, fullRange_, offset_, absolute_}) {
        connect(action, &QAction::triggered, this, [this] {
            save();
            emit optionsChanged(options());
        });
    }
}

DisplayOptions DisplayMenu::options() const
{
    return DisplayOptions{stretch_->isChecked(), absolute_->isChecked()};
}

void DisplayMenu::setOptions(const DisplayOptions& options)
{
    (options.stretch ? stretch_ : fullRange_)->setChecked(true);
    (options.absolute ? absolute_ : offset_)->setChecked(true);
    save();
}

void DisplayMenu::save() const
{
    QSettings settings;
    settings.setValue(kStretchKey, stretch_->isChecked());
    settings.setValue(kAbsoluteKey, absolute_->isChecked());
}

}  // namespace tessera::ui
