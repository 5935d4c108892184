// SPDX-License-Identifier: Apache-2.0
#include "ui/chart_widget.h"

#include <QHelpEvent>
#include <QToolTip>

namespace tessera::ui {

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(360, 280);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

QSize ChartWidget::sizeHint() const
{
    return QSize(480, 360);
}

bool ChartWidget::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

}  // namespace tessera::ui
