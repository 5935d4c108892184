#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes COUNT RGB PNG images for the batch measurement, with nothing but the Python standard
library (the GPU machine has no imaging packages): smooth gradients with a fine texture, so the
PNG codec has real work to do. Sizes alternate between 2000 x 1500 and 3000 x 2000; a few
distinct images are written and the rest are copies of them.

usage: make_batch_images.py OUTDIR [COUNT] [DISTINCT]
"""
import os
import shutil
import struct
import sys
import zlib


def png(path, width, height, seed):
    raw = bytearray()
    for y in range(height):
        raw.append(0)  # filter type: none
        g = (y * 255 // height) & 255
        row = bytearray(3 * width)
        for x in range(width):
            t = ((x * 2654435761 + y * 40503 + seed * 97) >> 13) & 15
            row[3 * x] = ((x * 255 // width) + seed * 20 + t) & 255
            row[3 * x + 1] = (g + t) & 255
            row[3 * x + 2] = (((x + y) >> 4) + seed * 7 + t) & 255
        raw += row

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(bytes(raw), 6)))
        f.write(chunk(b"IEND", b""))


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    distinct = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    os.makedirs(out, exist_ok=True)
    firsts = []
    for i in range(min(distinct, count)):
        w, h = (2000, 1500) if i % 2 == 0 else (3000, 2000)
        p = os.path.join(out, "img%03d.png" % i)
        png(p, w, h, i)
        firsts.append(p)
    for i in range(len(firsts), count):
        shutil.copyfile(firsts[i % len(firsts)], os.path.join(out, "img%03d.png" % i))


if __name__ == "__main__":
    main()
