// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QStringList>
#include <QUrl>

#include <functional>

class QTextBrowser;
class QToolButton;

namespace tessera::ui {

/// Help > User Guide: the HTML manual in a browser of the window's own (a QTextBrowser), so that it
/// reads offline, without a web browser, under any Qt platform (offscreen too). Links between the
/// pages, and to anchors in them, are followed in place, with Back, Forward and Home; a link with
/// another scheme (https:, mailto:) goes to the external-link handler (the desktop's browser by
/// default). When none of the places it is given holds the manual, the page says so and names
/// every place it looked in.
class UserGuideDialog : public QDialog {
    Q_OBJECT

public:
    /// places: the manual's index.html files to try, in order; the first that exists is home.
    explicit UserGuideDialog(const QStringList& places, QWidget* parent = nullptr);

    /// The browser that shows the pages.
    QTextBrowser* browser() const { return browser_; }
    /// The index.html shown as home; empty when none of the places exists.
    QString home() const { return home_; }
    /// Follows url as a click on a link does: resolved against the page shown, then shown in place
    /// when it names a local file, else handed to the external-link handler.
    void openLink(const QUrl& url);
    /// Replaces what opens links that are not local files (QDesktopServices::openUrl until set).
    void setExternalLinkHandler(std::function<void(const QUrl&)> handler);

    /// The page shown when the manual is missing: it names each of places.
    static QString missingManualHtml(const QStringList& places);

private:
    void showHome();
    void updateTitle();

    QTextBrowser* browser_ = nullptr;
    QToolButton* back_ = nullptr;
    QToolButton* forward_ = nullptr;
    QToolButton* homeButton_ = nullptr;
    QString home_;
    QStringList places_;
    std::function<void(const QUrl&)> external_;
};

}  // namespace tessera::ui
