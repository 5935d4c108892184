// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDoubleSpinBox>
#include <QSpinBox>

#include <algorithm>

namespace tessera::ui {

// Spin boxes that take a typed number outside their range and clamp it to the nearest end when
// the number is committed (Enter, focus loss), so that "50" in a field whose maximum is 5 shows
// 5, instead of refusing the "0" keystroke and leaving "5" as if it had been accepted.

/// Integer field that clamps typed numbers; see above.
class ClampingSpinBox : public QSpinBox {
public:
    using QSpinBox::QSpinBox;

    QValidator::State validate(QString& text, int& pos) const override
    {
        const QValidator::State state = QSpinBox::validate(text, pos);
        bool number = false;
        locale().toInt(text.trimmed(), &number);
        return state == QValidator::Invalid && number ? QValidator::Intermediate : state;
    }
    void fixup(QString& text) const override
    {
        bool number = false;
        const int typed = locale().toInt(text.trimmed(), &number);
        if (number) {
            text = textFromValue(std::clamp(typed, minimum(), maximum()));
        }
    }
};

/// Decimal field that clamps typed numbers; see above.
class ClampingDoubleSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;

    QValidator::State validate(QString& text, int& pos) const override
    {
        const QValidator::State state = QDoubleSpinBox::validate(text, pos);
        bool number = false;
        locale().toDouble(text.trimmed(), &number);
        return state == QValidator::Invalid && number ? QValidator::Intermediate : state;
    }
    void fixup(QString& text) const override
    {
        bool number = false;
        const double typed = locale().toDouble(text.trimmed(), &number);
        if (number) {
            text = textFromValue(std::clamp(typed, minimum(), maximum()));
        }
    }
};

}  // namespace tessera::ui
