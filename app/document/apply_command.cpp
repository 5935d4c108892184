// SPDX-License-Identifier: Apache-2.0
#include "app/document/apply_command.h"

#include "app/document/document.h"

#include <utility>

namespace tessera::app::document {

ApplyCommand::ApplyCommand(Document& document, DocumentState before, DocumentState after, const QString& text)
    : document_(document), before_(std::move(before)), after_(std::move(after))
{
    setText(text);
}

void ApplyCommand::undo()
{
    document_.installImage(before_.image, before_.stack);
}

void ApplyCommand::redo()
{
    document_.installImage(after_.image, after_.stack);
}

}  // namespace tessera::app::document
