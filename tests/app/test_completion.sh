#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The bash completion of tessera-cli as a shell uses it: the script from `tessera-cli completion
# bash` (and the copy the build writes for installing, when given) sourced into bash, then
# COMPREPLY checked for what a user would type before <TAB>.
#   test_completion.sh TESSERA_CLI [INSTALLED_COPY]
set -u
cli=$1
copy=${2:-}
failed=0

script=$("$cli" completion bash) || { echo "tessera-cli completion bash failed"; exit 1; }
if [[ -n $copy ]]; then
    if [[ ! -f $copy ]]; then
        echo "the build did not write $copy"
        exit 1
    fi
    if [[ "$script" != "$(cat "$copy")" ]]; then
        echo "$copy differs from the program's own completion script"
        failed=1
    fi
fi
eval "$script"
complete -p tessera-cli | grep -q -- '-F _tessera_cli' || { echo "tessera-cli has no completion function"; exit 1; }

# complete WORDS...: COMPREPLY for the command line WORDS (the last one being completed), as
# bash sets COMP_WORDS when '=' is a word break (bash's default).
complete_line() {
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _tessera_cli
}

# expect "WORDS..." -- WANTED...: every WANTED is among the replies (and, with --only, nothing else).
expect() {
    local only=
    if [[ $1 == --only ]]; then only=1; shift; fi
    local -a line=()
    while [[ $1 != -- ]]; do line+=("$1"); shift; done
    shift
    complete_line "${line[@]}"
    local want got=" ${COMPREPLY[*]} "
    for want in "$@"; do
        if [[ $got != *" $want "* ]]; then
            echo "FAIL: [${line[*]}<TAB>] lacks '$want'; got:$got"
            failed=1
        fi
    done
    if [[ -n $only && ${#COMPREPLY[@]} -ne $# ]]; then
        echo "FAIL: [${line[*]}<TAB>] gave ${#COMPREPLY[@]} replies, wanted $#: $got"
        failed=1
    fi
}

expect --only tessera-cli ap -- apply
expect tessera-cli '' -- apply batch batch-report bench filters devices completion help
expect tessera-cli - -- -v --verbose -q --quiet --help --version
expect --only tessera-cli apply --fil -- --filter
expect tessera-cli apply in.png --b -- --border --border-value
# Every filter id after --filter, from the program's registry.
ids=$("$cli" filters --json | grep -o '"id": *"[a-z_0-9]*"' | sed 's/.*"\([a-z_0-9]*\)"$/\1/')
[[ -n $ids ]] || { echo "FAIL: no filter ids from tessera-cli filters --json"; failed=1; }
# shellcheck disable=SC2086
expect --only tessera-cli apply in.png --filter '' -- $ids
expect --only tessera-cli apply --filter gau -- gaussian
# --filter=<TAB> and --filter=gau<TAB>: bash splits at '='.
# shellcheck disable=SC2086
expect --only tessera-cli apply --filter = -- $ids
expect --only tessera-cli apply --filter = gau -- gaussian
# The whole word when '=' is no word break.
expect --only tessera-cli batch --policy=r -- --policy=rename
# --param offers the keys of the --filter before it.
expect --only tessera-cli apply --filter gaussian --param '' -- sigma= size=
expect --only tessera-cli -q apply --filter=sobel --param = s -- size=
# Choices, global options before the command, the value of a short option.
expect --only tessera-cli -v apply in.png --border '' -- reflect101 reflect replicate constant wrap
expect --only tessera-cli apply in.png --method '' -- auto direct separable fft
expect --only tessera-cli bench in.png --devices '' -- each all cpu
expect --only tessera-cli batch-report '' -- merge
expect --only tessera-cli completion '' -- bash
# Files where a file goes: the input, -o, --preset.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
touch "$dir/photo.png" "$dir/preset.json"
expect --only tessera-cli apply "$dir/ph" -- "$dir/photo.png"
expect --only tessera-cli apply in.png -o "$dir/ph" -- "$dir/photo.png"
expect --only tessera-cli apply in.png --preset "$dir/pre" -- "$dir/preset.json"
# A flag takes no value: after --json come the options or files again.
expect tessera-cli apply in.png --json --s -- --scale --strip-metadata

if ((failed)); then
    exit 1
fi
echo "bash completion: all cases passed"
