#include "app/edit_commands.h"

#include <utility>

namespace tessera::app {

namespace {

// Changes further apart than this are separate undo steps.
constexpr qint64 kMergeWindowMs = 1000;

}  // namespace

StackCommand::StackCommand(ui::StackChange change, std::function<void(const ui::StackState&)> restore)
    : change_(std::move(change)), restore_(std::move(restore))
{
    setText(change_.text);
    age_.start();
}

void StackCommand::undo()
{
    restore_(change_.before);
    applied_ = false;
}

void StackCommand::redo()
{
    if (applied_) {
        return;  // first push: the stack already shows this state
    }
    restore_(change_.after);
    applied_ = true;
}

bool StackCommand::mergeWith(const QUndoCommand* other)
{
    const auto& next = static_cast<const StackCommand*>(other)->change_;
    if (change_.kind != ui::StackEdit::Params || next.kind != ui::StackEdit::Params ||
        next.entry != change_.entry || next.before != change_.after || age_.elapsed() > kMergeWindowMs) {
        return false;
    }
    change_.after = next.after;
    age_.restart();
    return true;
}

ApplyCommand::ApplyCommand(Document before, Document after, const QString& text,
                           std::function<void(const Document&)> install)
    : before_(std::move(before)), after_(std::move(after)), install_(std::move(install))
{
    setText(text);
}

void ApplyCommand::undo()
{
    install_(before_);
}

void ApplyCommand::redo()
{
    install_(after_);
}

}  // namespace tessera::app
