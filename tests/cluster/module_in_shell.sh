#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One round of tests/cluster/module_test.sh, run there in a fresh shell (env -i, bash --norc):
# module load tessera, check what it set, module unload, check that it is all gone.
# Usage: module_in_shell.sh MODULE_FOLDER PREFIX VERSION   (PREFIX: where the module must point)
# Prints one line per problem. Exit status: 0 passed, 1 a problem, 2 a usage error.
(($# == 3)) || { echo "usage: module_in_shell.sh MODULE_FOLDER PREFIX VERSION" >&2; exit 2; }
modules=$1 prefix=$2 version=$3
problems=0
problem() { echo "  $*"; problems=$((problems + 1)); }
# shellcheck disable=SC1091
source /usr/share/modules/init/bash
module use "$modules"
before_path=$PATH
before_manpath=${MANPATH-unset} before_pythonpath=${PYTHONPATH-unset}
module load tessera || { echo "  module load tessera failed"; exit 1; }
module list -t 2>&1 | grep -qx "tessera/$version" || problem "module list: $(module list -t 2>&1 | tr '\n' ' ')"
[[ $(command -v tessera-cli) = "$prefix/bin/tessera-cli" ]] || problem "tessera-cli is '$(command -v tessera-cli)'"
line=$(tessera-cli --version | head -n 1) || problem "tessera-cli --version failed"
[[ $line = "tessera-cli $version" ]] || problem "tessera-cli --version: '$line'"
[[ $MANPATH = "$prefix/share/man:"* ]] || problem "MANPATH is '$MANPATH'"
if command -v man >/dev/null; then
    [[ $(man -w tessera-cli) = "$prefix/share/man/man1/tessera-cli.1" ]] || problem "man -w tessera-cli: $(man -w tessera-cli 2>&1)"
    manpath 2>/dev/null | tr ':' '\n' | grep -qx /usr/share/man || problem "man's own folders are lost: $(manpath 2>&1)"
fi
spec=$(/usr/bin/python3 -c 'import importlib.util; print(importlib.util.find_spec("tessera").origin)')
[[ $spec = "$prefix/lib/python3/dist-packages/tessera/__init__.py" ]] || problem "Python finds tessera at '$spec'"
module unload tessera || problem "module unload tessera failed"
[[ $PATH = "$before_path" ]] || problem "PATH after unload: '$PATH', was '$before_path'"
[[ ${MANPATH-unset} = "$before_manpath" ]] || problem "MANPATH after unload: '${MANPATH-unset}', was '$before_manpath'"
[[ ${PYTHONPATH-unset} = "$before_pythonpath" ]] || problem "PYTHONPATH after unload: '${PYTHONPATH-unset}', was '$before_pythonpath'"
[[ $(command -v tessera-cli) != "$prefix/bin/tessera-cli" ]] || problem "tessera-cli still on PATH after unload"
((problems == 0))
