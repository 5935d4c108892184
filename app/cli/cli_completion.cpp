// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli_completion.h"

#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_filter_options.h"
#include "filters/registry.h"

#include <ostream>
#include <sstream>

namespace tessera::app {

namespace {

/// Every option a command's reader takes: its own, the shared filter options, the global ones.
std::vector<const OptionSpec*> optionsOf(const CommandSpec& command)
{
    std::vector<const OptionSpec*> all;
    for (const OptionSpec& o : command.options) {
        all.push_back(&o);
    }
    if (command.filterOptions) {
        for (const OptionSpec& o : filterOptionTable()) {
            all.push_back(&o);
        }
    }
    for (const OptionSpec& o : globalOptions()) {
        all.push_back(&o);
    }
    return all;
}

std::string join(const std::vector<std::string>& words)
{
    std::string text;
    for (const std::string& w : words) {
        text += (text.empty() ? "" : " ") + w;
    }
    return text;
}

/// The bash line that completes a value of kind (with its choices) from $cur, or empty for none.
std::string completeValue(ValueKind kind, std::string_view choices)
{
    switch (kind) {
    case ValueKind::File: return "_tessera_cli_files";
    case ValueKind::Directory: return "_tessera_cli_folders";
    case ValueKind::FilterId: return "_tessera_cli_words \"$_tessera_cli_filter_ids\"";
    case ValueKind::FilterParam: return "_tessera_cli_param_keys \"$filter\"";
    case ValueKind::Choice:
    case ValueKind::Text:
        return choices.empty() ? std::string() : "_tessera_cli_words \"" + std::string(choices) + "\"";
    case ValueKind::None: return {};
    }
    return {};
}

/// The script's shell helpers (words, files, folders) and the filter ids, up to the case of
/// _tessera_cli_param_keys.
void writeHelpers(std::ostringstream& s, const std::vector<std::string>& ids)
{
    s << "# bash completion for tessera-cli, written by 'tessera-cli completion bash' from the\n"
         "# program's own option tables: regenerate it rather than edit it. Safe under set -u.\n"
         "_tessera_cli_filter_ids='"
      << join(ids)
      << "'\n"
         "\n"
         "_tessera_cli_words() {\n"
         "    local IFS=$' \\t\\n'\n"
         "    COMPREPLY+=($(compgen -P \"$prefix\" -W \"$1\" -- \"$cur\"))\n"
         "}\n"
         "\n"
         "_tessera_cli_files() {\n"
         "    local IFS=$'\\n'\n"
         "    COMPREPLY+=($(compgen -P \"$prefix\" -f -- \"$cur\"))\n"
         "    compopt -o filenames 2>/dev/null\n"
         "}\n"
         "\n"
         "_tessera_cli_folders() {\n"
         "    local IFS=$'\\n'\n"
         "    COMPREPLY+=($(compgen -P \"$prefix\" -d -- \"$cur\"))\n"
         "    compopt -o filenames 2>/dev/null\n"
         "}\n"
         "\n"
         "# KEY= of the parameters of filter $1 (of every filter when none is given yet).\n"
         "_tessera_cli_param_keys() {\n"
         "    local keys\n"
         "    case $1 in\n";
}

/// The KEY= words of every filter's parameters, then the head of _tessera_cli_valued.
void writeParamKeys(std::ostringstream& s, const filters::FilterRegistry& registry)
{
    std::vector<std::string> allKeys;
    for (const auto& f : registry.all()) {
        std::vector<std::string> keys;
        for (const auto& p : f.params) {
            keys.push_back(p.key + "=");
            allKeys.push_back(p.key + "=");
        }
        s << "    " << f.id << ") keys='" << join(keys) << "' ;;\n";
    }
    s << "    *) keys='" << join(allKeys)
      << "' ;;\n"
         "    esac\n"
         "    _tessera_cli_words \"$keys\"\n"
         "    [[ ${#COMPREPLY[@]} -gt 0 ]] && compopt -o nospace 2>/dev/null\n"
         "}\n"
         "\n"
         "# Whether option $2 of command $1 takes a value.\n"
         "_tessera_cli_valued() {\n"
         "    case \"$1 $2\" in\n";
}

/// Which options of which command take a value, from the option tables.
void writeValued(std::ostringstream& s)
{
    for (const CommandSpec& c : cliCommands()) {
        for (const OptionSpec* o : optionsOf(c)) {
            if (o->value == ValueKind::None) {
                continue;
            }
            s << "    \"" << c.name << " " << o->name << "\"";
            if (!o->shortName.empty()) {
                s << "|\"" << c.name << " " << o->shortName << "\"";
            }
            s << ") return 0 ;;\n";
        }
    }
    s << "    esac\n"
         "    return 1\n"
         "}\n"
         "\n";
}

/// The completion function's scan of the words before the cursor (command, positional count,
/// the last --filter), the global options and the commands, up to the case of option values.
void writeScan(std::ostringstream& s, const std::vector<std::string>& globals, const std::vector<std::string>& commands)
{
    s << "_tessera_cli() {\n"
         "    local cur=${COMP_WORDS[COMP_CWORD]-} cword=$COMP_CWORD opt= prefix=\n"
         "    local -a words=(\"${COMP_WORDS[@]}\")\n"
         "    COMPREPLY=()\n"
         "    # --opt=value: bash splits the word at '=' (COMP_WORDBREAKS), or leaves it whole.\n"
         "    if [[ $cur == = ]]; then\n"
         "        opt=${words[cword-1]} cur=\n"
         "    elif ((cword > 1)) && [[ ${words[cword-1]} == = ]]; then\n"
         "        opt=${words[cword-2]}\n"
         "    elif [[ $cur == --*=* ]]; then\n"
         "        opt=${cur%%=*} prefix=${cur%%=*}= cur=${cur#*=}\n"
         "    fi\n"
         "    # The command, the positional arguments before this one, the last --filter.\n"
         "    local cmd= filter= ended= i w name value npos=0\n"
         "    for ((i = 1; i < cword; i++)); do\n"
         "        w=${words[i]}\n"
         "        if [[ -z $ended && $w == -- ]]; then\n"
         "            ended=1\n"
         "        elif [[ -z $ended && $w == -?* ]]; then\n"
         "            name=${w%%=*} value=${w#*=}\n"
         "            if [[ $w != *=* ]] && _tessera_cli_valued \"$cmd\" \"$name\"; then\n"
         "                if [[ ${words[i+1]-} == = ]]; then ((i += 2)); else ((i += 1)); fi\n"
         "                value=${words[i]-}\n"
         "            fi\n"
         "            [[ $name == --filter ]] && filter=$value\n"
         "        elif [[ -z $cmd ]]; then\n"
         "            cmd=$w\n"
         "        else\n"
         "            ((npos++))\n"
         "        fi\n"
         "    done\n"
         "    if [[ -z $opt && -z $ended && $cword -gt 1 ]] && _tessera_cli_valued \"$cmd\" \"${words[cword-1]}\"; "
         "then\n"
         "        opt=${words[cword-1]}\n"
         "    fi\n"
         "    if [[ -z $cmd ]]; then\n"
         "        if [[ $cur == -* ]]; then\n"
         "            _tessera_cli_words '"
      << join(globals)
      << " -h --help --version'\n"
         "        else\n"
         "            _tessera_cli_words '"
      << join(commands)
      << "'\n"
         "        fi\n"
         "        return 0\n"
         "    fi\n"
         "    if [[ -n $opt ]]; then\n"
         "        case \"$cmd $opt\" in\n";
}

/// Option values, option names and positional arguments, command by command; the end.
void writeCases(std::ostringstream& s)
{
    for (const CommandSpec& c : cliCommands()) {
        for (const OptionSpec* o : optionsOf(c)) {
            const std::string line = completeValue(o->value, o->choices);
            if (o->value == ValueKind::None || line.empty()) {
                continue;
            }
            s << "        \"" << c.name << " " << o->name << "\"";
            if (!o->shortName.empty()) {
                s << "|\"" << c.name << " " << o->shortName << "\"";
            }
            s << ") " << line << " ;;\n";
        }
    }
    s << "        esac\n"
         "        return 0\n"
         "    fi\n"
         "    if [[ -z $ended && $cur == -* ]]; then\n"
         "        case $cmd in\n";
    for (const CommandSpec& c : cliCommands()) {
        std::vector<std::string> names;
        for (const OptionSpec* o : optionsOf(c)) {
            names.push_back(std::string(o->name));
        }
        s << "        " << c.name << ") _tessera_cli_words '" << join(names) << "' ;;\n";
    }
    s << "        esac\n"
         "        return 0\n"
         "    fi\n"
         "    case $cmd in\n";
    for (const CommandSpec& c : cliCommands()) {
        const std::string first = completeValue(c.firstPositional, c.positionalChoices);
        const std::string later = completeValue(c.laterPositionals, {});
        if (first.empty() && later.empty()) {
            continue;
        }
        s << "    " << c.name << ")\n"
          << "        if ((npos == 0)); then " << (first.empty() ? ":" : first) << "; else "
          << (later.empty() ? ":" : later) << "; fi ;;\n";
    }
    s << "    esac\n"
         "    return 0\n"
         "}\n"
         "\n"
         "complete -F _tessera_cli tessera-cli\n";
}

}  // namespace

std::string bashCompletionScript()
{
    const auto& registry = filters::builtinRegistry();
    std::vector<std::string> ids;
    for (const auto& f : registry.all()) {
        ids.push_back(f.id);
    }
    std::vector<std::string> commands;
    for (const CommandSpec& c : cliCommands()) {
        commands.push_back(std::string(c.name));
    }
    std::vector<std::string> globals;
    for (const OptionSpec& o : globalOptions()) {
        globals.push_back(std::string(o.shortName));
        globals.push_back(std::string(o.name));
    }

    std::ostringstream s;
    writeHelpers(s, ids);
    writeParamKeys(s, registry);
    writeValued(s);
    writeScan(s, globals, commands);
    writeCases(s);
    return s.str();
}

int runCompletion(const std::vector<std::string>& args, CliContext& cli)
{
    std::vector<std::string> shells;
    bool help = false;
    try {
        ArgumentReader in(args, {helpOnlyOptions()}, &cli.verbosity);
        while (in.next()) {
            if (in.isOption()) {
                help = true;  // -h, --help
            } else {
                shells.push_back(in.current());
            }
        }
        if (!help && shells.size() != 1) {
            throw UsageError(shells.empty() ? "give the shell: bash" : "give one shell: bash");
        }
        if (!help && shells.front() != "bash") {
            throw UsageError("no completion for '" + shells.front() + "': bash is the shell supported");
        }
    } catch (const UsageError& e) {
        cli.err << "tessera-cli completion: " << e.what() << "\n\nUsage: tessera-cli completion bash\n";
        return kExitUsage;
    }
    if (help) {
        cli.out << "Usage: tessera-cli completion bash\n"
                   "\n"
                   "Prints the bash completion script, written from the program's own option tables:\n"
                   "commands, options and their values (filter ids after --filter, the filter's\n"
                   "parameters after --param, files and folders). Installed packages put it in\n"
                   "/usr/share/bash-completion/completions/tessera-cli; for one shell:\n"
                   "  source <(tessera-cli completion bash)\n";
        return kExitOk;
    }
    cli.out << bashCompletionScript();
    return kExitOk;
}

}  // namespace tessera::app
