// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_stack_model.h"

#include <opencv2/core/mat.hpp>

#include <QUndoCommand>

namespace tessera::app::document {

class Document;

/// The image together with the filter stack over it: what Apply changes.
struct DocumentState {
    cv::Mat image;
    filters::StackState stack;
};

/// Applying the stack to the image: the image becomes the stack's result and the stack is
/// reset; undo brings back both. The document must outlive the command.
class ApplyCommand : public QUndoCommand {
public:
    /// text names the step in the history ("Apply Box blur").
    ApplyCommand(Document& document, DocumentState before, DocumentState after, const QString& text);
    /// Puts the image and stack from before Apply back into the document.
    void undo() override;
    /// Puts the applied image and the empty stack into the document.
    void redo() override;

private:
    Document& document_;
    DocumentState before_;
    DocumentState after_;
};

}  // namespace tessera::app::document
