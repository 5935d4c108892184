#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Renders the hicolor PNGs from the SVG after the drawing changes (needs rsvg-convert, Debian
# package librsvg2-bin). The PNGs are kept in the repository, so building needs neither.
set -eu
cd "$(dirname "$0")"
for size in 16 24 32 48 64 128 256 512; do
    rsvg-convert -w "$size" -h "$size" io.github.tessera.Tessera.svg -o "hicolor/io.github.tessera.Tessera-$size.png"
done
