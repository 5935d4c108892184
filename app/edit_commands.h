#pragma once

#include "ui/filter_stack.h"

#include <opencv2/core/mat.hpp>

#include <QElapsedTimer>
#include <QUndoCommand>

#include <functional>

namespace tessera::app {

/// One edit of the filter stack (add, remove, move, enable, parameters, filter, preset).
/// Parameter edits of the same entry within a short time merge, so one slider drag is one undo
/// step.
class StackCommand : public QUndoCommand {
public:
    /// restore(state) shows a stack state and previews it. The stack already shows change.after
    /// when the command is pushed, so the first redo() does nothing.
    StackCommand(ui::StackChange change, std::function<void(const ui::StackState&)> restore);
    void undo() override;
    void redo() override;
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    ui::StackChange change_;
    std::function<void(const ui::StackState&)> restore_;
    bool applied_ = true;
    QElapsedTimer age_;
};

/// The open image together with the filter stack over it: what Apply changes.
struct Document {
    cv::Mat image;
    ui::StackState stack;
};

/// Applying the stack to the image: the image becomes the stack's result and the stack is
/// reset; undo brings back both.
class ApplyCommand : public QUndoCommand {
public:
    /// install(document) makes document's image the open image and shows its stack.
    ApplyCommand(Document before, Document after, const QString& text,
                 std::function<void(const Document&)> install);
    void undo() override;
    void redo() override;

private:
    Document before_;
    Document after_;
    std::function<void(const Document&)> install_;
};

}  // namespace tessera::app
