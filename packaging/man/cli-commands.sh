#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Writes a help2man include file with a COMMANDS section: the --help text of every tessera-cli
# sub-command, so that tessera-cli(1) documents them all and never drifts from the program.
#   cli-commands.sh TESSERA_CLI OUTPUT
set -eu
cli=$1
out=$2
tmp=$out.tmp
{
    echo '[COMMANDS]'
    echo 'Each command prints its own options with'
    echo '.B tessera\-cli'
    echo '.I COMMAND'
    echo '.BR \-\-help .'
    for cmd in apply batch batch-report bench filters devices completion; do
        echo ".SS $cmd"
        echo '.nf'
        # roff: escape backslashes and protect lines that start with a control character.
        "$cli" "$cmd" --help | sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
        echo '.fi'
    done
} > "$tmp"
mv "$tmp" "$out"
