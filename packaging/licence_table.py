#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The library table of packaging/THIRD-PARTY-NOTICES.md and the licence rules behind it.

packaging/licence-check.sh finds the shipped programs, records what `ldd` and `readelf -d` say
about each into a folder (PROGRAM.ldd, PROGRAM.needed, and `programs` naming them in order) and
passes the rules on the command line. This script maps every loaded library to the Debian
package that owns it (`dpkg -S`), reads the package's licence from
/usr/share/doc/PACKAGE/copyright, writes or compares the generated section of the notices and
reports each rule broken, one line per problem. Standard library only.

Exit status: 0 when no rule is broken (and, with --check, the file matches); 1 otherwise;
2 for bad input.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys

BEGIN = "<!-- BEGIN GENERATED LIBRARY TABLE -->"
END = "<!-- END GENERATED LIBRARY TABLE -->"

# Phrases of non-machine-readable copyright files and the licence each one shows. The order is the
# order in which they are reported.
TEXT_KEYWORDS = [
    (r"Runtime Library Exception", "GPL-3+ with GCC-Runtime-Library exception"),
    (r"(Lesser|Library) General Public", "LGPL"),
    (r"GNU General Public License", "GPL"),
    (r"Apache License", "Apache-2.0"),
    (r"Mozilla Public License", "MPL"),
    (r"Redistribution and use in source and binary forms", "BSD"),
    (r"Permission is hereby granted, free of charge", "Expat"),
    (r"Permission to use, copy, modify,? (and|distribute)", "MIT-style"),
    (r"provided 'as-is', without any express or implied", "Zlib"),
    (r"public domain", "public-domain"),
]


def die(message):
    print(f"licence-check: {message}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------------------------------------
# What the programs load


def read_program(folder, name):
    """(loaded, needed): loaded maps each library name to its resolved path (None: not found),
    needed is the set of NEEDED names."""
    loaded = {}
    with open(os.path.join(folder, name + ".ldd"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("linux-vdso") or line.startswith("statically linked"):
                continue
            m = re.match(r"(\S+) => (not found|(\S+) \(0x[0-9a-f]+\))", line)
            if m:
                loaded[m.group(1)] = m.group(3)  # None when not found
                continue
            m = re.match(r"(/\S+) \(0x[0-9a-f]+\)", line)  # the dynamic loader itself
            if m:
                loaded[os.path.basename(m.group(1))] = m.group(1)
    needed = set()
    with open(os.path.join(folder, name + ".needed"), encoding="utf-8") as f:
        for line in f:
            m = re.search(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", line)
            if m:
                needed.add(m.group(1))
    return loaded, needed


def path_variants(path):
    """The names dpkg may know a library by: as given and resolved, each with and without the
    /usr of a merged-usr system (a package lists /usr/lib/x, ldd may say /lib/x, or the other
    way round)."""
    out = []
    for p in (path, os.path.realpath(path)):
        for q in (p, p[4:] if p.startswith("/usr/") else "/usr" + p):
            if q not in out:
                out.append(q)
    return out


def owning_packages(paths):
    """Maps each path to the package owning it (None when no package does), with one dpkg -S
    call for all of them."""
    candidates = sorted({v for p in paths for v in path_variants(p)})
    owners = {}
    if candidates:
        run = subprocess.run(["dpkg", "-S"] + candidates, capture_output=True, text=True)
        for line in run.stdout.splitlines():
            if line.startswith("diversion "):
                continue
            m = re.match(r"(.+?): (/.*)$", line)
            if m:
                package = m.group(1).split(",")[0].strip().split(":")[0]
                owners[m.group(2)] = package
    result = {}
    for p in paths:
        result[p] = next((owners[v] for v in path_variants(p) if v in owners), None)
    return result


def needed_of(path):
    """The NEEDED entries of a library file."""
    run = subprocess.run(["readelf", "-d", path], capture_output=True, text=True)
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", run.stdout)


def pulled_in_by(needed, graph, target):
    """The direct link through which a program loads target: the first of its NEEDED libraries
    (in name order) whose dependencies reach target, with the chain as "a -> b -> target"."""
    for start in sorted(needed):
        queue = [[start]]
        seen = {start}
        while queue:
            chain = queue.pop(0)
            if chain[-1] == target:
                return " -> ".join(chain)
            for nxt in graph.get(chain[-1], []):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(chain + [nxt])
    return None


# ---------------------------------------------------------------------------------------------
# Licences


def dep5_paragraphs(text):
    """The paragraphs of a machine-readable copyright file as {field: first line of value}."""
    paragraphs = []
    for block in re.split(r"\n\s*\n", text):
        fields = {}
        for line in block.splitlines():
            m = re.match(r"([A-Za-z-]+):\s*(.*)$", line)
            if m and not line[0].isspace():
                fields[m.group(1).lower()] = m.group(2).strip()
        if fields:
            paragraphs.append(fields)
    return paragraphs


def licence_of(package):
    """(main, others): the licence of the package's code as a whole and the set of the other
    licence names its copyright file gives single files. For a machine-readable file, main is
    the licence of `Files: *` (of the first Files stanza when there is none); otherwise a keyword
    scan of the text, marked "(from text)"."""
    if package is None:
        return "unknown (no Debian package)", []
    path = f"/usr/share/doc/{package}/copyright"
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return f"unknown (no {path})", []
    if re.match(r"Format:\s*\S*copyright-format", text):
        stanzas = [p for p in dep5_paragraphs(text) if "files" in p and p.get("license")]
        if stanzas:
            names = [" ".join(p["license"].split()) for p in stanzas]
            main_index = next((i for i, p in enumerate(stanzas) if p["files"].split() == ["*"]), 0)
            main = names[main_index]
            others = sorted({n for n in names if n != main}, key=lambda n: (n.lower(), n))
            return main, others
    found = []
    for pattern, name in TEXT_KEYWORDS:
        if re.search(pattern, text, re.IGNORECASE) and name not in found:
            found.append(name)
    # Versions named through Debian's common licences folder, e.g. common-licenses/LGPL-2.1.
    versions = sorted(set(re.findall(r"common-licenses/((?:L?GPL)-[0-9]+(?:\.[0-9]+)*)", text)))
    named = []
    for name in found:
        if name in ("GPL", "LGPL"):
            with_version = [v for v in versions if v.split("-")[0] == name]
            named.extend(with_version or [name])
        else:
            named.append(name)
    if not named:
        return "unknown (from text)", []
    return ", ".join(named) + " (from text)", []


def is_copyleft_only(licence, copyleft, exceptions):
    """True when every alternative of the licence expression binds a program that links it:
    each alternative (split on "or", or on the commas of a text scan) has a part ("and") whose
    name matches the copyleft pattern without an accepted linking exception."""
    expression = licence.replace("(from text)", "").strip()
    if expression.startswith("unknown"):
        return False
    alternatives = re.split(r"\s+or\s+|,\s*", expression, flags=re.IGNORECASE)
    if "(from text)" in licence:
        # A text scan cannot tell which part covers the library: any non-copyleft name passes.
        return all(re.search(copyleft, a) and not re.search(exceptions, a) for a in alternatives)
    for alternative in alternatives:
        binding = any(re.search(copyleft, part) and not re.search(exceptions, part)
                      for part in re.split(r"\s+and\s+", alternative, flags=re.IGNORECASE))
        if not binding:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# The table


def md(cell):
    return cell.replace("|", "\\|")


def generate(programs, libraries):
    """The generated section (without the markers)."""
    lines = [
        "<!-- Written by packaging/licence-check.sh BUILD_DIR; edit the rules there, not this table. -->",
        "",
        "Programs checked, with the number of shared libraries each loads (direct links in brackets):",
        "",
    ]
    for name, info in programs.items():
        lines.append(f"- `{name}`: {len(info['loaded'])} ({len(info['needed'])})")
    lines += [
        "",
        "The licence is that of the `Files: *` stanza of the package's machine-readable copyright",
        "file: the package's default, which a library built from only part of the source may not",
        "carry (the second table lists the licences of single files, where such a library's own",
        "licence may be; the rule on direct links reads the default). \"(from text)\" marks a",
        "copyright file in free text, whose licence names were found by keywords and cover the",
        "package's files together.",
        "",
        "| Library | Debian package | Licence | Linked directly by | Loaded indirectly by |",
        "|---|---|---|---|---|",
    ]
    for soname in sorted(libraries, key=lambda n: (n.lower(), n)):
        lib = libraries[soname]
        direct = ", ".join(p for p in programs if p in lib["direct"]) or "-"
        indirect = ", ".join(p for p in programs if p in lib["indirect"]) or "-"
        lines.append(f"| `{soname}` | {md(lib['package'] or '(none)')} | {md(lib['licence'])} "
                     f"| {direct} | {indirect} |")
    packages = {}
    for lib in libraries.values():
        if lib["package"] and lib["others"]:
            packages[lib["package"]] = lib["others"]
    if packages:
        lines += [
            "",
            "Other licences the same copyright files give to single files of those packages "
            "(tools, tests, documentation, bundled code):",
            "",
            "| Debian package | Other licences |",
            "|---|---|",
        ]
        for package in sorted(packages):
            lines.append(f"| {md(package)} | {md('; '.join(packages[package]))} |")
    return "\n".join(lines) + "\n"


def split_notices(text, path):
    begin = text.find(BEGIN)
    end = text.find(END)
    if begin < 0 or end < 0 or end < begin:
        die(f"{path} has no '{BEGIN}' ... '{END}' section")
    head = text[: begin + len(BEGIN)] + "\n"
    return head, text[begin + len(BEGIN):end].lstrip("\n"), text[end:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", required=True, help="folder of PROGRAM.ldd / PROGRAM.needed")
    parser.add_argument("--notices", required=True, help="THIRD-PARTY-NOTICES.md")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--forbid", action="append", default=[],
                        help="NAME|REGEX|REASON: no program may load a library whose name matches")
    parser.add_argument("--copyleft", required=True, help="licence names that bind a linking program")
    parser.add_argument("--exceptions", required=True, help="linking exceptions that lift that")
    args = parser.parse_args()

    try:
        with open(os.path.join(args.records, "programs"), encoding="utf-8") as f:
            names = [line.strip() for line in f if line.strip()]
    except OSError as e:
        die(f"cannot read the program list: {e}")
    forbidden = []
    for rule in args.forbid:
        parts = rule.split("|", 2)
        if len(parts) != 3:
            die(f"a forbidden-library rule is NAME|REGEX|REASON, not '{rule}'")
        forbidden.append((parts[0], re.compile(parts[1]), parts[2]))

    programs = {}
    for name in names:
        loaded, needed = read_program(args.records, name)
        programs[name] = {"loaded": loaded, "needed": needed}

    paths = sorted({p for info in programs.values() for p in info["loaded"].values() if p})
    owners = owning_packages(paths)
    graph = {}
    for info in programs.values():
        for soname, path in info["loaded"].items():
            if path and soname not in graph:
                graph[soname] = needed_of(path)
    licences = {}
    libraries = {}
    problems = []
    for name, info in programs.items():
        for soname, path in info["loaded"].items():
            if path is None:
                problems.append(f"{name}: {soname}: not found by the loader, its licence cannot be read")
                continue
            lib = libraries.get(soname)
            if lib is None:
                package = owners[path]
                if package not in licences:
                    licences[package] = licence_of(package)
                main_licence, others = licences[package]
                lib = libraries[soname] = {"package": package, "licence": main_licence,
                                           "others": others, "direct": set(), "indirect": set()}
            (lib["direct"] if soname in info["needed"] else lib["indirect"]).add(name)
            for rule_name, pattern, reason in forbidden:
                if pattern.search(soname):
                    if soname in info["needed"]:
                        how = "links"
                    else:
                        chain = pulled_in_by(info["needed"], graph, soname)
                        how = f"loads (through {chain})" if chain else "loads (indirectly)"
                    problems.append(f"{name}: {soname}: {how} {rule_name}, which no shipped program "
                                    f"may load: {reason}")
            if soname in info["needed"] and is_copyleft_only(lib["licence"], args.copyleft,
                                                             args.exceptions):
                problems.append(f"{name}: {soname}: linked directly, and its package "
                                f"{lib['package']} is under {lib['licence']} only (no LGPL or "
                                f"permissive alternative)")
        for soname in sorted(info["needed"] - set(info["loaded"])):
            problems.append(f"{name}: {soname}: NEEDED but not in ldd's list")

    section = generate(programs, libraries)
    try:
        with open(args.notices, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        die(f"cannot read {args.notices}: {e}")
    head, current, tail = split_notices(text, args.notices)
    if args.check:
        if current != section:
            diff = difflib.unified_diff(current.splitlines(), section.splitlines(),
                                        f"{args.notices} (committed)", "generated now", lineterm="")
            print("\n".join(diff))
            problems.append(f"{args.notices}: the library table differs from this build's "
                            f"(run packaging/licence-check.sh BUILD_DIR and commit the result)")
    elif current != section:
        with open(args.notices, "w", encoding="utf-8") as f:
            f.write(head + section + tail)
        print(f"licence-check: wrote the library table into {args.notices}")

    for name, info in programs.items():
        print(f"licence-check: {name}: {len(info['loaded'])} libraries loaded, "
              f"{len(info['needed'])} linked directly")
    for problem in problems:
        print(f"licence-check: FAIL: {problem}")
    if problems:
        print(f"licence-check: {len(problems)} problem(s)")
        return 1
    print("licence-check: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
