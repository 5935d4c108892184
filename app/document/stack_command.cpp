// SPDX-License-Identifier: Apache-2.0
#include "app/document/stack_command.h"

#include "app/document/document.h"

#include <utility>

namespace tessera::app::document {

namespace {

// Changes further apart than this are separate undo steps.
constexpr qint64 kMergeWindowMs = 1000;

}  // namespace

StackCommand::StackCommand(Document& document, StackChange change, const QString& text)
    : document_(document), change_(std::move(change))
{
    setText(text);
    age_.start();
}

void StackCommand::undo()
{
    document_.installStack(change_.before);
}

void StackCommand::redo()
{
    document_.installStack(change_.after);
}

bool StackCommand::mergeWith(const QUndoCommand* other)
{
    const auto& next = static_cast<const StackCommand*>(other)->change_;
    if (change_.kind != filters::StackEdit::Params || next.kind != filters::StackEdit::Params ||
        next.entry != change_.entry || next.before != change_.after || age_.elapsed() > kMergeWindowMs) {
        return false;
    }
    change_.after = next.after;
    age_.restart();
    return true;
}

}  // namespace tessera::app::document
