#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the links of Tessera's documentation. Python 3 standard library only.

    check_links.py [ROOT] [FILE...]   Markdown: every relative link, image and #anchor in
                                      README.md, CONTRIBUTING.md and docs/*.md of ROOT (or in the
                                      FILEs given) must name a file or folder that exists, inside
                                      ROOT, and an anchor that the target's headings make.
    check_links.py --html DIR         the built manual: every relative href and src of DIR/*.html
                                      resolves inside DIR (anchors included), no link still ends
                                      in .md, and the page loads nothing from the network.

Anchors are made from headings as GitHub and pandoc (gfm_auto_identifiers) make them: the
heading's text, lower-cased, without punctuation, spaces turned into hyphens, and "-1", "-2", ...
appended to repeats. Links with a scheme (https:, mailto:) are not followed. Exit status: 0 every
link resolves, 1 a broken link (each one printed as FILE:LINE: message), 2 bad arguments.
"""

import html.parser
import os
import re
import sys
import unicodedata
import urllib.parse

DEFAULT_FILES = ["README.md", "CONTRIBUTING.md"]

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_ATTRIBUTE = re.compile(r"<(?:a|img|link|script|source)\b[^>]*?\b(?:href|src)\s*=\s*[\"']([^\"']*)[\"']", re.I)
HTML_ANCHOR = re.compile(r"<[a-z][^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def slug(text):
    """GitHub's anchor for a heading's text (what github-slugger and pandoc's gfm reader make)."""
    text = CODE_SPAN.sub(lambda m: m.group(2).strip(), text)
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", text)  # links: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML tags
    text = re.sub(r"(\*+|(?<!\w)_+|_+(?!\w))", "", text)  # emphasis markers, not snake_case
    kept = []
    for c in text.lower():
        category = unicodedata.category(c)
        if c in " -_" or category[0] in "LN" or category[0] == "M":
            kept.append("-" if c == " " else c)
    return "".join(kept)


def markdown_lines(text):
    """(line number, line) of the text outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            continue
        if fence is not None:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) and \
                    line.strip() == match.group(1):
                fence = None
            continue
        yield number, line


def markdown_anchors(text):
    """Every anchor a Markdown text defines: its headings' slugs and explicit HTML ids."""
    anchors = set()
    seen = {}
    previous = None
    for _, line in markdown_lines(text):
        heading = None
        match = ATX_HEADING.match(line)
        if match:
            heading = match.group(2)
        elif previous is not None and previous.strip() and SETEXT_UNDERLINE.match(line) and \
                not previous.lstrip().startswith(("-", "*", "+", ">", "|")):
            heading = previous.strip()
        if heading is not None:
            base = slug(heading)
            count = seen.get(base, 0)
            seen[base] = count + 1
            anchors.add(base if count == 0 else f"{base}-{count}")
        anchors.update(HTML_ANCHOR.findall(line))
        previous = line
    return anchors


def markdown_links(text):
    """(line number, target) of every link, image and reference definition outside code."""
    lines = list(markdown_lines(text))
    # Code spans may not cross a blank line; joining each paragraph keeps spans that wrap.
    paragraphs = []
    current = []
    for number, line in lines:
        if line.strip():
            current.append((number, line))
        elif current:
            paragraphs.append(current)
            current = []
    if current:
        paragraphs.append(current)
    for paragraph in paragraphs:
        starts = []
        joined = ""
        for number, line in paragraph:
            starts.append((len(joined), number))
            joined += line + "\n"
        # Blank code spans out, keeping offsets so that each link keeps its line.
        joined = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), joined)

        def line_of(offset):
            found = starts[0][1]
            for start, number in starts:
                if start > offset:
                    break
                found = number
            return found

        for pattern in (INLINE_LINK, HTML_ATTRIBUTE):
            for match in pattern.finditer(joined):
                target = match.group(1).strip()
                if target.startswith("<") and target.endswith(">"):
                    target = target[1:-1]
                yield line_of(match.start()), target
        for start, number in starts:
            line = joined[start:].split("\n", 1)[0]
            match = REFERENCE_DEFINITION.match(line)
            if match:
                yield number, match.group(1).strip("<>")


class MarkdownChecker:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.anchor_cache = {}
        self.problems = []

    def anchors_of(self, path):
        if path not in self.anchor_cache:
            with open(path, encoding="utf-8") as f:
                self.anchor_cache[path] = markdown_anchors(f.read())
        return self.anchor_cache[path]

    def report(self, path, line, message):
        self.problems.append(f"{os.path.relpath(path, self.root)}:{line}: {message}")

    def check_file(self, path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        count = 0
        for line, target in markdown_links(text):
            if not target or SCHEME.match(target) or target.startswith("//"):
                continue
            count += 1
            address, _, fragment = target.partition("#")
            address = urllib.parse.unquote(address)
            fragment = urllib.parse.unquote(fragment)
            if address:
                resolved = os.path.realpath(os.path.join(os.path.dirname(path), address))
            else:
                resolved = path
            if os.path.commonpath([resolved, self.root]) != self.root:
                self.report(path, line, f"link '{target}' leaves the repository")
                continue
            if not os.path.exists(resolved):
                self.report(path, line, f"link '{target}': {os.path.relpath(resolved, self.root)} does not exist")
                continue
            if fragment:
                if not resolved.endswith(".md") or not os.path.isfile(resolved):
                    self.report(path, line, f"link '{target}': an anchor into a file that is not Markdown")
                elif fragment not in self.anchors_of(resolved):
                    self.report(path, line, f"link '{target}': no heading or id makes the anchor '#{fragment}' in "
                                f"{os.path.relpath(resolved, self.root)}")
        return count


class _HtmlPage(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []  # (line, tag, attribute, value)
        self.styles = []

    def handle_starttag(self, tag, attrs):
        line = self.getpos()[0]
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name") and (name == "id" or tag == "a"):
                self.ids.add(value)
            if name in ("href", "src"):
                self.links.append((line, tag, name, value))
            if name == "style":
                self.styles.append((line, value))

    def handle_data(self, data):
        if self.lasttag == "style":
            self.styles.append((self.getpos()[0], data))


REMOTE_IN_CSS = re.compile(r"(?:url\(\s*['\"]?|@import\s+['\"])\s*(?:[A-Za-z][A-Za-z0-9+.-]*:)?//", re.I)


def check_html(folder):
    """Problems of the built manual in folder, as text lines."""
    folder = os.path.realpath(folder)
    problems = []
    pages = sorted(name for name in os.listdir(folder) if name.endswith(".html"))
    if "index.html" not in pages:
        problems.append(f"{folder}: no index.html")
    parsed = {}
    for name in pages:
        page = _HtmlPage()
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            page.feed(f.read())
        parsed[name] = page
    for name in pages:
        for line, tag, attribute, value in parsed[name].links:
            where = f"{name}:{line}"
            if value.startswith("//") or (SCHEME.match(value) and tag != "a"):
                problems.append(f"{where}: <{tag} {attribute}> loads '{value}' from outside the manual")
                continue
            if SCHEME.match(value):
                continue
            address, _, fragment = value.partition("#")
            address = urllib.parse.unquote(address)
            if address.endswith(".md"):
                problems.append(f"{where}: link '{value}' still names a Markdown file")
                continue
            resolved = os.path.realpath(os.path.join(folder, address)) if address else os.path.join(folder, name)
            if os.path.commonpath([resolved, folder]) != folder:
                problems.append(f"{where}: link '{value}' leaves the manual")
            elif not os.path.exists(resolved):
                problems.append(f"{where}: link '{value}': {os.path.relpath(resolved, folder)} does not exist")
            elif fragment and resolved.endswith(".html"):
                target = parsed.get(os.path.relpath(resolved, folder))
                if target is None or urllib.parse.unquote(fragment) not in target.ids:
                    problems.append(f"{where}: link '{value}': no id '{fragment}' there")
        for line, text in parsed[name].styles:
            if REMOTE_IN_CSS.search(text):
                problems.append(f"{name}:{line}: a style loads something from the network")
    for root, _, files in os.walk(folder):
        for css in (f for f in files if f.endswith(".css")):
            path = os.path.join(root, css)
            with open(path, encoding="utf-8") as f:
                if REMOTE_IN_CSS.search(f.read()):
                    problems.append(f"{os.path.relpath(path, folder)}: loads something from the network")
    return problems, len(pages)


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) >= 2 and argv[1] == "--html":
        if len(argv) != 3 or not os.path.isdir(argv[2]):
            print("usage: check_links.py --html DIR", file=sys.stderr)
            return 2
        problems, pages = check_html(argv[2])
        for problem in problems:
            print(problem)
        if problems:
            print(f"check_links: {len(problems)} broken link(s) in the manual's {pages} pages")
            return 1
        print(f"check_links: every link of the manual's {pages} pages resolves")
        return 0

    root = argv[1] if len(argv) >= 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    if not os.path.isdir(root):
        print(f"check_links: {root} is not a folder", file=sys.stderr)
        return 2
    checker = MarkdownChecker(root)
    if len(argv) > 2:
        files = [os.path.realpath(f) for f in argv[2:]]
    else:
        files = [os.path.join(checker.root, name) for name in DEFAULT_FILES]
        docs = os.path.join(checker.root, "docs")
        if os.path.isdir(docs):
            files += sorted(os.path.join(docs, name) for name in os.listdir(docs) if name.endswith(".md"))
    links = 0
    for path in files:
        if not os.path.isfile(path):
            checker.problems.append(f"{os.path.relpath(path, checker.root)}: missing")
            continue
        links += checker.check_file(path)
    for problem in checker.problems:
        print(problem)
    if checker.problems:
        print(f"check_links: {len(checker.problems)} broken link(s) in {len(files)} files")
        return 1
    print(f"check_links: {links} relative links in {len(files)} files resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
