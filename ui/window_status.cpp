// SPDX-License-Identifier: Apache-2.0
#include "ui/window_status.h"

#include <QEvent>
#include <QLabel>
#include <QLayout>
#include <QStatusBar>

#include <algorithm>

namespace tessera::ui {

namespace {

constexpr int kMessageMs = 15000;
/// The widest a long field (where the preview ran, the compute summary) may be before it is
/// elided; its tooltip keeps the whole text. Leaves room for passing messages on a 1280 screen.
constexpr int kLongFieldWidth = 240;
/// The display mapping's text is wider ("data min-max [-3.5, 3.5], 0 at mid-grey") and is read
/// more often, so it gets more room before it is elided.
constexpr int kDisplayFieldWidth = 380;

}  // namespace

WindowStatus::WindowStatus(QStatusBar* bar) : QObject(bar), bar_(bar)
{
    const struct {
        const char* name;
        QString tip;
    } fields[kFieldCount] = {
        {"pixelLabel", tr("Position and values of the pixel under the cursor")},
        {"imageInfoLabel", tr("Image size and pixel format")},
        {"displayLabel",
         tr("What black and white stand for on screen (View > Display Mapping); the data is not changed")},
        {"previewLabel", tr("Where the last preview ran and how long it took")},
        {"computeLabel", QString()},
    };
    for (int i = 0; i < kFieldCount; ++i) {
        auto* label = new QLabel(bar);
        label->setObjectName(QString::fromLatin1(fields[i].name));
        label->setToolTip(fields[i].tip);
        if (i == Display) {
            displayTip_ = fields[i].tip;
        }
        label->setContentsMargins(8, 0, 8, 0);
        bar->addPermanentWidget(label);
        labels_[static_cast<size_t>(i)] = label;
    }
    bar_->installEventFilter(this);
    // Once the message has passed (or the bar cleared it), message() says so.
    connect(bar_, &QStatusBar::messageChanged, this, [this](const QString& shown) {
        if (shown.isEmpty()) {
            message_.clear();
        }
    });
    set(Pixel, QString());
    set(Display, QString());
    set(Compute, tr("Compute: not checked yet"));
}

void WindowStatus::set(Field field, const QString& text)
{
    QLabel* label = labels_[static_cast<size_t>(field)];
    texts_[static_cast<size_t>(field)] = text;
    if (field == Preview || field == Compute) {
        label->setText(label->fontMetrics().elidedText(text, Qt::ElideRight, kLongFieldWidth));
        label->setToolTip(text);
    } else if (field == Display) {
        label->setText(label->fontMetrics().elidedText(text, Qt::ElideRight, kDisplayFieldWidth));
        label->setToolTip(text.isEmpty() ? displayTip_ : text + QLatin1Char('\n') + displayTip_);
    } else {
        label->setText(text);
    }
    if (field == Pixel || field == Display) {
        label->setVisible(!text.isEmpty());
    }
}

QString WindowStatus::text(Field field) const
{
    return texts_[static_cast<size_t>(field)];
}

int WindowStatus::messageRoom() const
{
    // Once the fields are laid out, the message has the bar up to the first of them; before,
    // their size hints stand in.
    int firstField = bar_->width();
    int fields = 0;
    bool laidOut = true;
    for (const QLabel* label : labels_) {
        if (label->isHidden()) {
            continue;
        }
        fields += std::max(label->width(), label->sizeHint().width()) + bar_->layout()->spacing();
        laidOut = laidOut && label->isVisible() && label->geometry().right() > 0;
        firstField = std::min(firstField, label->geometry().left());
    }
    constexpr int kMargins = 12;  // the bar's own padding left of the message
    const int room = laidOut ? firstField - kMargins : bar_->width() - fields - 32;
    return std::max(24, room);
}

void WindowStatus::showCut(int ms)
{
    const QString cut = bar_->fontMetrics().elidedText(message_, Qt::ElideRight, messageRoom());
    if (cut != bar_->currentMessage() || ms == kMessageMs) {
        bar_->showMessage(cut, ms);
    }
}

void WindowStatus::showMessage(const QString& message)
{
    message_ = message;
    shownAt_.start();
    showCut(kMessageMs);
    bar_->setToolTip(message);
}

bool WindowStatus::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == bar_ && (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest) &&
        !message_.isEmpty()) {
        const qint64 left = kMessageMs - shownAt_.elapsed();
        if (left > 0) {
            // After the bar has handled the event, so that the fields have their new places.
            QMetaObject::invokeMethod(
                this, [this, left] { showCut(static_cast<int>(left)); }, Qt::QueuedConnection);
        }
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace tessera::ui
