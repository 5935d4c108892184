// SPDX-License-Identifier: Apache-2.0
// One vocabulary: the kernel editor's one-off division by the sum is not called "Normalise"
// beside the custom filter's Normalize parameter, which divides at every run; every device
// choice says "Auto (every GPU, else the CPU)"; the display mapping's text is elided in the
// status bar with the whole text in its tooltip.

#include "filters/registry.h"
#include "ui/file_dialogs.h"
#include "ui/kernel_editor.h"
#include "ui/preferences_dialog.h"
#include "ui/window_status.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QLabel>
#include <QPushButton>
#include <QStatusBar>

namespace {

const QString kAuto = QStringLiteral("Auto (every GPU, else the CPU)");

TEST(Vocabulary, TheKernelEditorsSumButtonIsNotCalledNormalise)
{
    tessera::ui::KernelEditor editor;
    auto* button = editor.findChild<QPushButton*>(QStringLiteral("normaliseButton"));
    ASSERT_NE(button, nullptr);
    const QString text = button->text().remove(QLatin1Char('&'));
    EXPECT_FALSE(text.contains(QStringLiteral("ormali"), Qt::CaseInsensitive)) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Sum"), Qt::CaseInsensitive)) << text.toStdString();
    // The parameter keeps its name and id; the button's tooltip tells the two apart.
    bool found = false;
    for (const auto& p : tessera::filters::builtinRegistry().get("custom").params) {
        if (p.key == "normalize") {
            found = true;
            EXPECT_EQ(p.label, "Normalize");
            EXPECT_NE(QString::fromStdString(p.label), text);
        }
    }
    EXPECT_TRUE(found);
    EXPECT_TRUE(button->toolTip().contains(QStringLiteral("Normalize parameter"))) << button->toolTip().toStdString();
}

TEST(Vocabulary, EveryDeviceChoiceSaysAutoTheSameWay)
{
    const auto options = tessera::ui::PreferencesDialog::basicDeviceOptions();
    ASSERT_FALSE(options.empty());
    EXPECT_EQ(options.front().label, kAuto);
    auto* dialog = new tessera::ui::PreferencesDialog(options);
    auto* combo = dialog->findChild<QComboBox*>(QStringLiteral("deviceCombo"));
    ASSERT_NE(combo, nullptr);
    EXPECT_NE(combo->findText(kAuto), -1);
    EXPECT_EQ(combo->findText(QStringLiteral("Auto (the first GPU, else the CPU)")), -1);
    delete dialog;
}

TEST(Vocabulary, ALongDisplayTextIsElidedWithTheWholeTextInItsTooltip)
{
    QStatusBar bar;
    tessera::ui::WindowStatus status(&bar);
    auto* label = bar.findChild<QLabel*>(QStringLiteral("displayLabel"));
    ASSERT_NE(label, nullptr);
    const QString shortText = QStringLiteral("Display: data min-max [0, 1]");
    status.set(tessera::ui::WindowStatus::Display, shortText);
    EXPECT_EQ(label->text(), shortText);
    const QString longText =
        QStringLiteral("Display: data min-max [-123456, 123456], 0 at mid-grey ") + QString(120, QLatin1Char('y'));
    status.set(tessera::ui::WindowStatus::Display, longText);
    EXPECT_NE(label->text(), longText);
    EXPECT_LT(label->sizeHint().width(), label->fontMetrics().horizontalAdvance(longText));
    EXPECT_TRUE(label->toolTip().contains(longText));
    EXPECT_EQ(status.text(tessera::ui::WindowStatus::Display), longText);
}

TEST(Vocabulary, EveryFileDialogStartsInTheFolderShownOrTheLastOneUsed)
{
    using tessera::ui::FolderRole;
    QSettings().clear();
    const QString bundled = QFileInfo(QStringLiteral(TESSERA_SAMPLE_DIR "/../presets")).absoluteFilePath();
    ASSERT_TRUE(QFileInfo(bundled).isDir()) << bundled.toStdString();
    tessera::ui::setBundledPresetFolder(bundled);
    // Nothing shown, nothing used yet: presets start in the bundled ones.
    EXPECT_EQ(tessera::ui::startFolder(FolderRole::Preset), bundled);
    EXPECT_EQ(tessera::ui::startFolder(FolderRole::Preset, QStringLiteral("  ")), bundled);
    // A field that names a file or a folder starts there.
    const QString temp = QFileInfo(QDir::tempPath()).absoluteFilePath();
    EXPECT_EQ(tessera::ui::startFolder(FolderRole::Preset, QDir(temp).filePath(QStringLiteral("not-there.json"))),
              temp);
    EXPECT_EQ(tessera::ui::startFolder(FolderRole::Save, temp), temp);
    // A field naming a folder that is gone falls back to the last one used.
    tessera::ui::rememberFolder(FolderRole::Save, QDir(temp).filePath(QStringLiteral("out.png")));
    EXPECT_EQ(tessera::ui::startFolder(FolderRole::Save, QStringLiteral("/nonexistent-tessera/a/b.png")), temp);
    EXPECT_EQ(tessera::ui::suggestedSavePath(QStringLiteral("comparison.json")),
              QDir(temp).filePath(QStringLiteral("comparison.json")));
    EXPECT_EQ(tessera::ui::suggestedSavePath(QStringLiteral("/x/y.json")), QStringLiteral("/x/y.json"));
    QSettings().clear();
}

}  // namespace
