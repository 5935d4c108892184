// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPointF>
#include <QString>
#include <QWidget>

namespace tessera::ui {

/// What the painted charts share as widgets: their size, opaque painting, mouse tracking, and a
/// tooltip that asks the chart what lies under the pointer. GUI thread only.
class ChartWidget : public QWidget {
    Q_OBJECT

public:
    explicit ChartWidget(QWidget* parent = nullptr);

    /// The hover text at pos; empty where there is nothing to tell.
    virtual QString toolTipAt(QPointF pos) const = 0;

    QSize sizeHint() const override;

protected:
    bool event(QEvent* event) override;
};

}  // namespace tessera::ui
