// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_stack_model.h"
#include "filters/registry.h"

#include <opencv2/core/mat.hpp>

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <string>
#include <vector>

namespace tessera::app::document {

/// The open image, the filter stack over it and the edit history: the model the Filter and
/// Kernel docks view. Every edit is a named command on undoStack(); the command changes the
/// document, which then emits stackChanged() or imageChanged() for the views to follow. An edit
/// that changes nothing pushes nothing. GUI thread only; nothing here throws.
class Document : public QObject {
    Q_OBJECT

public:
    /// An empty document whose filters come from registry (which must outlive it).
    explicit Document(const filters::FilterRegistry& registry, QObject* parent = nullptr);
    ~Document() override;

    /// The open image (with applied filters); empty before the first one.
    const cv::Mat& image() const { return image_; }
    /// The filter stack and its selected entry.
    const filters::StackState& stack() const { return stack_; }
    /// The edit history: stack edits and applies.
    QUndoStack& undoStack() { return undo_; }
    /// The registry the stack's filters come from.
    const filters::FilterRegistry& registry() const { return registry_; }
    /// The title of filter id ("Box blur"); the id itself when the registry does not know it.
    QString titleOf(const std::string& id) const;

    /// Makes image the open image (a file was opened, so it counts as saved); the stack stays
    /// and the history is cleared. Emits nothing: the caller shows the new image.
    void setImage(cv::Mat image);
    /// Records that the image as it is now was written to its file.
    void markSaved() { savedData_ = image_.data; }
    /// True when the image differs from the one last opened or saved (Apply, or its undo of a
    /// save).
    bool isModified() const { return static_cast<const void*>(image_.data) != savedData_; }
    /// Replaces the stack without an undo step (a stack given on the command line); emits
    /// stackChanged().
    void resetStack(filters::StackState stack);

public slots:
    /// Adds filter id with its defaults below the selected entry and selects it.
    void addFilter(const QString& id);
    /// Removes entry index; the one below it (or above, at the end) becomes selected.
    void removeEntry(int index);
    /// Moves entry from to place to (clamped to the stack) and selects it.
    void moveEntry(int from, int to);
    /// Turns entry index on or off.
    void setEntryEnabled(int index, bool enabled);
    /// Makes choice the selected entry's settings (a Filter panel edit), keeping what the panel
    /// does not show; with an empty stack the choice becomes the first entry.
    void editCurrent(const tessera::filters::FilterChoice& choice);
    /// Replaces the selected entry (a kernel editor edit); with an empty stack entry becomes the
    /// first one.
    void replaceCurrent(const tessera::filters::StackEntry& entry);
    /// Replaces every entry (a loaded preset) in one edit named text.
    void replaceEntries(const std::vector<tessera::filters::StackEntry>& entries, const QString& text);
    /// Selects entry index (-1: none) without an undo step; emits currentChanged().
    void select(int index);
    /// Makes result the image and takes the enabled filters off the stack, as one undo step named
    /// text: they are now in the pixels. Disabled filters stay, still off.
    void apply(const cv::Mat& result, const QString& text);

signals:
    /// The stack's entries (and maybe its selection) changed: by an edit, undo or redo.
    void stackChanged();
    /// Only the selected entry changed.
    void currentChanged(int index);
    /// The image changed through Apply or its undo; the stack changed with it.
    void imageChanged();

private:
    friend class StackCommand;
    friend class ApplyCommand;

    void edit(filters::StackState next, filters::StackEdit kind, int entry, const QString& text);
    bool editSelected(filters::StackEntry entry);
    /// For the commands: shows state as the stack.
    void installStack(const filters::StackState& state);
    /// For the commands: shows image with stack over it.
    void installImage(const cv::Mat& image, const filters::StackState& stack);

    const filters::FilterRegistry& registry_;
    cv::Mat image_;
    filters::StackState stack_;
    QUndoStack undo_;
    const void* savedData_ = nullptr;  ///< pixels of the image as last opened or saved
};

}  // namespace tessera::app::document
