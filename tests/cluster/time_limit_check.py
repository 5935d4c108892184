#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks what a batch stopped by a signal left: its report and its output folder.

Usage: time_limit_check.py REPORT OUTDIR TOTAL

The report must say that the run was cancelled, list all TOTAL files of the list once each, as
"ok" (at least one) or "cancelled" and nothing else, with counts that match its entries. OUTDIR
must hold exactly the "ok" entries' outputs, each a complete 8-bit grey PNG of its input's size
(every chunk's CRC right, the image data inflating to exactly the rows it needs, IEND last).
Prints one line per problem and exits 1, or prints "WRITTEN LAST_INPUT LAST_OUTPUT" (the count
of files written, and the input and output of the written file latest in the list) and exits 0.
"""

import json
import os
import struct
import sys
import zlib


def pgm_size(path):
    """Width and height from a binary PGM header (P5, no comments, as the test writes them)."""
    with open(path, "rb") as f:
        fields = f.read(64).split()
    if fields[0] != b"P5":
        raise ValueError(f"{path}: not a binary PGM")
    return int(fields[1]), int(fields[2])


def png_problem(path, width, height):
    """Why the file is not a complete 8-bit grey PNG of width x height, or None."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "no PNG signature"
    pos, idat, header, ended = 8, b"", None, False
    while pos < len(data):
        if ended:
            return "bytes after IEND"
        if pos + 12 > len(data):
            return f"a chunk cut short at byte {pos}"
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if len(body) != length or pos + 12 + length > len(data):
            return f"chunk {kind!r} cut short"
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            return f"chunk {kind!r} has a wrong CRC"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            ended = True
        pos += 12 + length
    if not ended:
        return "no IEND"
    if header is None:
        return "no IHDR"
    w, h, depth, colour, _, _, interlace = header
    if (w, h) != (width, height):
        return f"{w} x {h}, not the input's {width} x {height}"
    if (depth, colour, interlace) != (8, 0, 0):
        return f"bit depth {depth}, colour type {colour}, interlace {interlace}: not 8-bit grey"
    try:
        rows = zlib.decompress(idat)
    except zlib.error as e:
        return f"image data does not inflate: {e}"
    if len(rows) != h * (w + 1):
        return f"image data holds {len(rows)} bytes, not {h * (w + 1)}"
    return None


def main():
    if len(sys.argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    report_path, outdir, total = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    problems = []
    files = report.get("files", [])
    ok = [e for e in files if e.get("status") == "ok"]
    cancelled = [e for e in files if e.get("status") == "cancelled"]
    if report.get("was_cancelled") is not True:
        problems.append("the report does not say the run was cancelled")
    if report.get("total") != total or report.get("list_total") != total or len(files) != total:
        problems.append(
            f"the report lists {len(files)} files (total {report.get('total')}, list_total "
            f"{report.get('list_total')}), not {total}"
        )
    if sorted(e.get("position") for e in files) != list(range(1, len(files) + 1)):
        problems.append("the report's positions are not 1..N once each")
    if len(ok) + len(cancelled) != len(files):
        others = sorted({e.get("status") for e in files} - {"ok", "cancelled"})
        problems.append(f"entries neither ok nor cancelled: {others}")
    if not ok:
        problems.append("no file was written before the signal")
    if not cancelled:
        problems.append("no file was left out: the signal came after the last file")
    counts = {k: report.get(k) for k in ("ok", "cancelled", "failed", "skipped")}
    if counts != {"ok": len(ok), "cancelled": len(cancelled), "failed": 0, "skipped": 0}:
        problems.append(f"counts {counts} do not match the entries ({len(ok)} ok, {len(cancelled)} cancelled)")

    expected = set()
    for e in ok:
        output = e.get("output", "")
        expected.add(os.path.basename(output))
        if not os.path.isfile(output):
            problems.append(f"{output}: listed as written, but absent")
            continue
        problem = png_problem(output, *pgm_size(e["input"]))
        if problem:
            problems.append(f"{output}: {problem}")
    present = set(os.listdir(outdir))
    if present != expected:
        problems.append(
            f"the output folder holds {sorted(present - expected)[:5]} not listed as written "
            f"and lacks {sorted(expected - present)[:5]}"
        )
    if problems:
        print("\n".join(problems))
        return 1
    last = max(ok, key=lambda e: e["position"])
    print(len(ok), last["input"], last["output"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
