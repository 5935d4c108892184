#include "app/edit_commands.h"

#include <QCoreApplication>

#include <utility>

namespace tessera::app {

namespace {

// Changes further apart than this are separate undo steps.
constexpr qint64 kMergeWindowMs = 1000;

}  // namespace

ChoiceCommand::ChoiceCommand(ui::FilterChoice before, ui::FilterChoice after,
                             std::function<void(const ui::FilterChoice&)> restore)
    : before_(std::move(before)), after_(std::move(after)), restore_(std::move(restore))
{
    setText(QCoreApplication::translate("ChoiceCommand", "Change %1").arg(QString::fromStdString(after_.id)));
    age_.start();
}

void ChoiceCommand::undo()
{
    restore_(before_);
    applied_ = false;
}

void ChoiceCommand::redo()
{
    if (applied_) {
        return;  // first push: the panel already shows this choice
    }
    restore_(after_);
    applied_ = true;
}

bool ChoiceCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const ChoiceCommand*>(other);
    if (next->after_.id != after_.id || before_.id != after_.id || age_.elapsed() > kMergeWindowMs) {
        return false;
    }
    after_ = next->after_;
    age_.restart();
    return true;
}

ApplyCommand::ApplyCommand(cv::Mat before, cv::Mat after, const QString& filterTitle,
                           std::function<void(const cv::Mat&)> install)
    : before_(std::move(before)), after_(std::move(after)), install_(std::move(install))
{
    setText(QCoreApplication::translate("ApplyCommand", "Apply %1").arg(filterTitle));
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
