// SPDX-License-Identifier: Apache-2.0
#include "app/document/document.h"

#include "app/document/apply_command.h"
#include "app/document/stack_command.h"

#include <algorithm>
#include <utility>

namespace tessera::app::document {

using filters::StackEdit;
using filters::StackEntry;
using filters::StackState;

Document::Document(const filters::FilterRegistry& registry, QObject* parent) : QObject(parent), registry_(registry)
{
}

Document::~Document() = default;

QString Document::titleOf(const std::string& id) const
{
    const filters::FilterDesc* desc = registry_.find(id);
    return QString::fromStdString(desc != nullptr ? desc->title : id);
}

void Document::setImage(cv::Mat image)
{
    image_ = std::move(image);
    markSaved();
    undo_.clear();
}

void Document::resetStack(StackState stack)
{
    installStack(stack);
}

void Document::addFilter(const QString& id)
{
    const filters::FilterDesc* desc = registry_.find(id.toStdString());
    if (desc == nullptr) {
        return;
    }
    StackState next = stack_;
    const int at = stack_.current < 0 ? static_cast<int>(next.entries.size()) : stack_.current + 1;
    next.entries.insert(next.entries.begin() + at, StackEntry{filters::defaultChoice(*desc)});
    next.current = at;
    edit(std::move(next), StackEdit::Add, at, tr("Add %1").arg(titleOf(desc->id)));
}

void Document::removeEntry(int index)
{
    if (index < 0 || index >= static_cast<int>(stack_.entries.size())) {
        return;
    }
    const QString text = tr("Remove %1").arg(titleOf(stack_.entries[static_cast<size_t>(index)].choice.id));
    StackState next = stack_;
    next.entries.erase(next.entries.begin() + index);
    next.current = std::min(index, static_cast<int>(next.entries.size()) - 1);
    edit(std::move(next), StackEdit::Remove, index, text);
}

void Document::moveEntry(int from, int to)
{
    const int count = static_cast<int>(stack_.entries.size());
    if (from < 0 || from >= count) {
        return;
    }
    to = std::clamp(to, 0, count - 1);
    if (to == from) {
        return;
    }
    const QString title = titleOf(stack_.entries[static_cast<size_t>(from)].choice.id);
    StackState next = stack_;
    StackEntry moved = next.entries[static_cast<size_t>(from)];
    next.entries.erase(next.entries.begin() + from);
    next.entries.insert(next.entries.begin() + to, std::move(moved));
    next.current = to;
    edit(std::move(next), StackEdit::Move, to, (to < from ? tr("Move %1 up") : tr("Move %1 down")).arg(title));
}

void Document::setEntryEnabled(int index, bool enabled)
{
    if (index < 0 || index >= static_cast<int>(stack_.entries.size()) ||
        stack_.entries[static_cast<size_t>(index)].enabled == enabled) {
        return;
    }
    StackState next = stack_;
    StackEntry& entry = next.entries[static_cast<size_t>(index)];
    entry.enabled = enabled;
    const QString title = titleOf(entry.choice.id);
    edit(std::move(next), StackEdit::Enable, index, enabled ? tr("Enable %1").arg(title) : tr("Disable %1").arg(title));
}

void Document::editCurrent(const filters::FilterChoice& choice)
{
    editSelected(filters::editedEntry(stack_.currentEntry(), choice));
}

void Document::replaceCurrent(const StackEntry& entry)
{
    editSelected(entry);
}

bool Document::editSelected(StackEntry entry)
{
    if (entry.choice.id.empty()) {
        return false;
    }
    const QString title = titleOf(entry.choice.id);
    StackState next = stack_;
    if (stack_.currentEntry() == nullptr) {
        // Nothing selected (an empty stack): the edit starts the stack.
        next.entries.insert(next.entries.begin(), std::move(entry));
        next.current = 0;
        edit(std::move(next), StackEdit::Add, 0, tr("Add %1").arg(title));
        return true;
    }
    StackEntry& old = next.entries[static_cast<size_t>(stack_.current)];
    if (old == entry) {
        return false;
    }
    const bool sameFilter = old.choice.id == entry.choice.id;
    old = std::move(entry);
    edit(std::move(next), sameFilter ? StackEdit::Params : StackEdit::ChangeFilter, stack_.current,
         sameFilter ? tr("Change %1").arg(title) : tr("Change filter to %1").arg(title));
    return true;
}

void Document::replaceEntries(const std::vector<StackEntry>& entries, const QString& text)
{
    edit(StackState{entries, entries.empty() ? -1 : 0}, StackEdit::Replace, -1, text);
}

void Document::select(int index)
{
    if (index < -1 || index >= static_cast<int>(stack_.entries.size()) || index == stack_.current) {
        return;
    }
    stack_.current = index;
    emit currentChanged(index);
}

void Document::apply(const cv::Mat& result, const QString& text)
{
    // The enabled filters are now in the pixels; the disabled ones were not applied and stay,
    // still off, for the user to use or remove.
    StackState left;
    for (const filters::StackEntry& entry : stack_.entries) {
        if (!entry.enabled) {
            left.entries.push_back(entry);
        }
    }
    left.current = left.entries.empty() ? -1 : 0;
    undo_.push(new ApplyCommand(*this, DocumentState{image_, stack_}, DocumentState{result, std::move(left)}, text));
}

void Document::edit(StackState next, StackEdit kind, int entry, const QString& text)
{
    if (next == stack_) {
        return;
    }
    undo_.push(new StackCommand(*this, StackChange{stack_, std::move(next), kind, entry}, text));
}

void Document::installStack(const StackState& state)
{
    stack_ = state;
    emit stackChanged();
}

void Document::installImage(const cv::Mat& image, const StackState& stack)
{
    image_ = image;
    stack_ = stack;
    emit imageChanged();
}

}  // namespace tessera::app::document
