// SPDX-License-Identifier: Apache-2.0
#include "ui/user_guide_dialog.h"
#include "ui/screen_fit.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QPushButton>
#include <QStyle>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

namespace tessera::ui {

namespace {

QToolButton* navigationButton(QWidget* parent, QStyle::StandardPixmap icon, const QString& text, const QString& name,
                              const QKeySequence& key)
{
    auto* button = new QToolButton(parent);
    button->setObjectName(name);
    button->setIcon(parent->style()->standardIcon(icon));
    button->setText(text);
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    button->setShortcut(key);
    button->setToolTip(QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
    button->setAutoRaise(true);
    return button;
}

}  // namespace

UserGuideDialog::UserGuideDialog(const QStringList& places, QWidget* parent)
    : QDialog(parent), places_(places), external_([](const QUrl& url) { QDesktopServices::openUrl(url); })
{
    setObjectName(QStringLiteral("userGuideDialog"));
    setWindowTitle(tr("Tessera User Guide"));
    setSizeGripEnabled(true);
    resize(fittedSize(QSize(960, 720), availableArea(parentWidget())));

    back_ = navigationButton(this, QStyle::SP_ArrowBack, tr("Back"), QStringLiteral("guideBack"),
                             QKeySequence(QKeySequence::Back));
    forward_ = navigationButton(this, QStyle::SP_ArrowForward, tr("Forward"), QStringLiteral("guideForward"),
                                QKeySequence(QKeySequence::Forward));
    homeButton_ = navigationButton(this, QStyle::SP_DirHomeIcon, tr("Home"), QStringLiteral("guideHome"),
                                   QKeySequence(Qt::ALT | Qt::Key_Home));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(back_);
    bar->addWidget(forward_);
    bar->addWidget(homeButton_);
    bar->addStretch(1);

    browser_ = new QTextBrowser(this);
    browser_->setObjectName(QStringLiteral("userGuideBrowser"));
    // Every click comes to openLink(), which decides between the pages and the desktop.
    browser_->setOpenLinks(false);
    browser_->setOpenExternalLinks(false);
    connect(browser_, &QTextBrowser::anchorClicked, this, &UserGuideDialog::openLink);
    connect(browser_, &QTextBrowser::backwardAvailable, back_, &QWidget::setEnabled);
    connect(browser_, &QTextBrowser::forwardAvailable, forward_, &QWidget::setEnabled);
    connect(browser_, &QTextBrowser::sourceChanged, this, &UserGuideDialog::updateTitle);
    connect(back_, &QToolButton::clicked, browser_, &QTextBrowser::backward);
    connect(forward_, &QToolButton::clicked, browser_, &QTextBrowser::forward);
    connect(homeButton_, &QToolButton::clicked, this, &UserGuideDialog::showHome);
    back_->setEnabled(false);
    forward_->setEnabled(false);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Enter in the browser must not close the guide.
    buttons->button(QDialogButtonBox::Close)->setAutoDefault(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(browser_, 1);
    layout->addWidget(buttons);

    for (const QString& place : places_) {
        if (QFileInfo(place).isFile()) {
            home_ = QFileInfo(place).absoluteFilePath();
            break;
        }
    }
    showHome();
}

void UserGuideDialog::setExternalLinkHandler(std::function<void(const QUrl&)> handler)
{
    external_ = std::move(handler);
}

void UserGuideDialog::openLink(const QUrl& url)
{
    const QUrl target = browser_->source().isValid() ? browser_->source().resolved(url) : url;
    if (target.isLocalFile() || target.scheme().isEmpty()) {
        browser_->setSource(target);
    } else if (external_) {
        external_(target);
    }
}

void UserGuideDialog::showHome()
{
    homeButton_->setEnabled(!home_.isEmpty());
    if (home_.isEmpty()) {
        browser_->setHtml(missingManualHtml(places_));
        updateTitle();
        return;
    }
    browser_->setSource(QUrl::fromLocalFile(home_));
}

void UserGuideDialog::updateTitle()
{
    // The pages' titles name the manual already ("Python - Tessera").
    const QString page = browser_->documentTitle();
    setWindowTitle(page.isEmpty() ? tr("Tessera User Guide") : page);
}

QString UserGuideDialog::missingManualHtml(const QStringList& places)
{
    QString list;
    for (const QString& place : places) {
        list += QStringLiteral("<li><code>%1</code></li>").arg(place.toHtmlEscaped());
    }
    if (list.isEmpty()) {
        list = tr("<li>(no place was given)</li>");
    }
    return tr("<h2>The user guide is not here</h2>"
              "<p>Tessera shows its manual from HTML pages installed with it, and looked for them "
              "at:</p><ul>%1</ul>"
              "<p>Installed from the Debian package, the manual is in "
              "<code>/usr/share/tessera/manual</code>; reinstalling the package brings it back. In a "
              "build folder, the target <code>tessera_manual</code> builds it when pandoc is installed "
              "(<code>packaging/install-deps.sh</code> installs it). The same text is in the "
              "<code>docs/</code> folder of the sources.</p>")
        .arg(list);
}

}  // namespace tessera::ui
