// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_stack_model.h"

#include <QElapsedTimer>
#include <QUndoCommand>

namespace tessera::app::document {

class Document;

/// One edit of the filter stack as a value: the states before and after, and what it did.
struct StackChange {
    filters::StackState before;
    filters::StackState after;
    filters::StackEdit kind = filters::StackEdit::Params;
    int entry = -1;  ///< the entry edited, as indexed in after (before for Remove)
};

/// One edit of the document's stack (add, remove, move, enable, parameters, filter, preset).
/// Parameter edits of the same entry within a short time merge, so one slider drag is one undo
/// step. The document must outlive the command.
class StackCommand : public QUndoCommand {
public:
    /// text names the edit in the history ("Add Box blur").
    StackCommand(Document& document, StackChange change, const QString& text);
    /// Puts change.before back into the document.
    void undo() override;
    /// Puts change.after into the document (also on the first push).
    void redo() override;
    /// Merges only with other StackCommands.
    int id() const override { return 1; }
    /// Takes other's after state when both edit the parameters of one entry in quick succession.
    bool mergeWith(const QUndoCommand* other) override;

private:
    Document& document_;
    StackChange change_;
    QElapsedTimer age_;
};

}  // namespace tessera::app::document
