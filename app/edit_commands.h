#pragma once

#include "ui/filter_panel.h"

#include <opencv2/core/mat.hpp>

#include <QElapsedTimer>
#include <QUndoCommand>

#include <functional>

namespace tessera::app {

/// A change of the Filter panel's settings. Consecutive changes of the same filter within a
/// short time merge, so one slider drag is one undo step.
class ChoiceCommand : public QUndoCommand {
public:
    /// restore(choice) puts a choice back into the panel and previews it.
    ChoiceCommand(ui::FilterChoice before, ui::FilterChoice after,
                  std::function<void(const ui::FilterChoice&)> restore);
    void undo() override;
    void redo() override;
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    ui::FilterChoice before_;
    ui::FilterChoice after_;
    std::function<void(const ui::FilterChoice&)> restore_;
    bool applied_ = true;  ///< the panel already shows after_ when the command is pushed
    QElapsedTimer age_;
};

/// Applying the previewed filter to the image: swaps the image data.
class ApplyCommand : public QUndoCommand {
public:
    /// install(mat) makes mat the open image.
    ApplyCommand(cv::Mat before, cv::Mat after, const QString& filterTitle,
                 std::function<void(const cv::Mat&)> install);
    void undo() override;
    void redo() override;

private:
    cv::Mat before_;
    cv::Mat after_;
    std::function<void(const cv::Mat&)> install_;
};

}  // namespace tessera::app
