#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The environment module packaging/modules/tessera.module, loaded by Debian's environment-modules
# in fresh shells (env -i, bash --norc) over a fake install prefix: bin/tessera-cli (a link to
# the build's), share/man/man1/tessera-cli.1, lib/python3/dist-packages/tessera (a link to
# python/tessera) and the modulefile as share/modulefiles/tessera/VERSION. Rounds 1 to 3 run
# tests/cluster/module_in_shell.sh, each in a shell of its own:
#   1. module load tessera: tessera-cli is the prefix's (before another one already on PATH) and
#      prints the module's version, MANPATH finds the prefix's page and still man's own folders,
#      Python finds the prefix's package; module unload: PATH as before, MANPATH and PYTHONPATH
#      unset again;
#   2. the same with MANPATH and PYTHONPATH set beforehand: both exactly as before after unload;
#   3. the prefix copied elsewhere: the module loaded from there points there;
#   4. the modulefile alone in a module folder outside a prefix: module load fails, PATH as
#      before.
# Exit status: 0 passed, 1 failed, 77 skipped (environment-modules is not installed).
# Usage: tests/cluster/module_test.sh [BUILD_DIR]   (default build/dev)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-build/dev}
[[ $build = /* ]] || build=$root/$build
cli=$build/app/tessera-cli
init=/usr/share/modules/init/bash

say() { echo "module-test: $*"; }
fail() {
    say "FAILED: $*" >&2
    exit 1
}
[[ -f $init ]] || { say "SKIPPED: $init not found (install environment-modules)"; exit 77; }
[[ -x $cli ]] || fail "$cli not found: build first"
[[ -x /usr/bin/python3 ]] || fail "/usr/bin/python3 not found (it checks PYTHONPATH)"

version=$("$cli" --version | sed -n '1s/^tessera-cli \([^ ]*\)$/\1/p')
[[ -n $version ]] || fail "no version in the first line of tessera-cli --version: $("$cli" --version | head -n 1)"
tmp=$(mktemp -d /tmp/tessera-module.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

make_prefix() {  # make_prefix DIR: a fake Tessera install in DIR
    mkdir -p "$1/bin" "$1/share/man/man1" "$1/lib/python3/dist-packages" "$1/share/modulefiles/tessera"
    ln -s "$cli" "$1/bin/tessera-cli"
    printf '.TH TESSERA-CLI 1\n.SH NAME\ntessera-cli \\- the prefix'"'"'s page\n' >"$1/share/man/man1/tessera-cli.1"
    ln -s "$root/python/tessera" "$1/lib/python3/dist-packages/tessera"
    cp "$root/packaging/modules/tessera.module" "$1/share/modulefiles/tessera/$version"
}

fresh() {  # fresh [VAR=VALUE...] -- ARGS: module_in_shell.sh in a shell that inherits nothing
    local vars=()
    while [[ $1 != -- ]]; do vars+=("$1"); shift; done
    shift
    env -i HOME="$tmp" PATH="$tmp/decoy:/usr/bin:/bin" "${vars[@]}" bash --norc --noprofile "$root/tests/cluster/module_in_shell.sh" "$@"
}
# Another tessera-cli already on PATH: the module's must come before it.
mkdir -p "$tmp/decoy"
printf '#!/bin/sh\necho "tessera-cli decoy"\n' >"$tmp/decoy/tessera-cli"
chmod +x "$tmp/decoy/tessera-cli"

prefix=$tmp/opt/tessera/$version
make_prefix "$prefix"
fresh -- "$prefix/share/modulefiles" "$prefix" "$version" || fail "1. load and unload in a clean shell (above)"
say "1. tessera/$version: tessera-cli, its man page and the Python package from $prefix; unload restores PATH, MANPATH and PYTHONPATH unset"

fresh MANPATH=/usr/local/man PYTHONPATH=/srv/python -- "$prefix/share/modulefiles" "$prefix" "$version" \
    || fail "2. load and unload over a set MANPATH and PYTHONPATH (above)"
say "2. MANPATH and PYTHONPATH set beforehand: the same after unload"

moved=$tmp/elsewhere/tessera-copy
mkdir -p "$(dirname "$moved")"
cp -a "$prefix" "$moved"
fresh -- "$moved/share/modulefiles" "$moved" "$version" || fail "3. the prefix copied to $moved (above)"
say "3. the prefix copied elsewhere: the module points at the copy"

mkdir -p "$tmp/loose/tessera"
cp "$root/packaging/modules/tessera.module" "$tmp/loose/tessera/$version"
# shellcheck disable=SC2016  # expanded by the inner shell
out=$(env -i HOME="$tmp" PATH=/usr/bin:/bin bash --norc --noprofile -c '
    source /usr/share/modules/init/bash
    module use "$1"
    before=$PATH
    if module load tessera 2>&1; then echo "LOADED"; fi
    [[ $PATH = "$before" ]] || echo "PATH CHANGED: $PATH"' _ "$tmp/loose" 2>&1)
[[ $out != *LOADED* && $out != *"PATH CHANGED"* ]] || fail "4. a modulefile outside a prefix loaded: $out"
[[ $out = *"no tessera-cli in"* ]] || fail "4. a modulefile outside a prefix: no reason given: $out"
say "4. the modulefile outside a prefix refuses to load: $(grep -o 'no tessera-cli in [^:]*' <<<"$out" | head -n 1)"
say "PASSED"
