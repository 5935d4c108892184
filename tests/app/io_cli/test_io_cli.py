# SPDX-License-Identifier: Apache-2.0
"""Image I/O as a user meets it through tessera-cli: metadata that is carried or named as left
out, decodes that are bounded and stop on Ctrl+C, and failures whose first line is Tessera's.

Black-box: only the program (TESSERA_CLI) is run, inputs are made with OpenCV and Debian's exiv2
program, outputs are read back with exiv2 and ImageMagick, so the same file checks any build.
"""

import json
import os
import signal
import struct
import subprocess
import time
import zlib

import cv2
import numpy as np
import pytest

CLI = os.environ.get("TESSERA_CLI", "tessera-cli")


def run(*args, timeout=120):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=timeout)


def tool(*args):
    return subprocess.run(list(map(str, args)), capture_output=True, text=True).stdout


def value(path, key):
    """One metadata value of path as exiv2 prints it, or None."""
    out = subprocess.run(["exiv2", "-q", "-K", key, "-Pv", str(path)], capture_output=True)
    return out.stdout.rstrip(b"\n").decode("latin-1") if out.returncode == 0 and out.stdout else None


def apply_json(src, dst):
    done = run("apply", src, "-o", dst, "--kernel", "1", "--device", "cpu", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def said(report):
    """What the run says the output holds and what it says it left out, as one text."""
    return str(report.get("metadata", "")) + " | " + " ".join(report.get("metadata_left_out", []))


def photo(path, rows=40, cols=64):
    """A grey photo with a red block at its top-left corner as stored."""
    img = np.full((rows, cols, 3), 128, np.uint8)
    img[:16, :16] = (0, 0, 255)
    assert cv2.imwrite(str(path), img)
    return img


def icc_profile(size=3000):
    """A display RGB profile header that readers accept, then filler that varies by byte."""
    icc = bytearray((i * 7 + 3) & 0xFF for i in range(size))
    icc[0:4] = struct.pack(">I", size)
    icc[4:8] = b"\0\0\0\0"
    icc[8:12] = struct.pack(">I", 0x02100000)
    icc[12:24] = b"mntrRGB XYZ "
    icc[24:36] = bytes(12)
    icc[36:40] = b"acsp"
    icc[40:68] = bytes(28)
    icc[68:80] = struct.pack(">III", 0xF6D6, 0x10000, 0xD32D)
    icc[80:132] = bytes(52)
    return bytes(icc)


def exiv2_set(path, *commands):
    done = subprocess.run(["exiv2", *[f"-M{c}" for c in commands], str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def insert_segment(jpeg_path, marker, payload):
    """Puts an APPn segment right after SOI."""
    data = open(jpeg_path, "rb").read()
    segment = bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload
    open(jpeg_path, "wb").write(data[:2] + segment + data[2:])


@pytest.fixture(autouse=True)
def _tools():
    for name in ("exiv2", "convert"):
        if subprocess.run(["sh", "-c", f"command -v {name}"], capture_output=True).returncode != 0:
            pytest.skip(f"{name} is not installed")


# ---- Metadata ----

def test_a_large_xmp_costs_a_jpeg_output_none_of_its_exif_and_icc(tmp_path):
    src = tmp_path / "big-xmp.png"
    photo(src)
    exiv2_set(src, "set Exif.Image.Make Ascii TesseraCam", "set Xmp.dc.description " + "x" * 70000)
    (tmp_path / "big-xmp.icc").write_bytes(icc_profile())
    subprocess.run(["exiv2", "-iC", str(src)], check=True, capture_output=True)
    out = tmp_path / "out.jpg"
    report = apply_json(src, out)
    assert value(out, "Exif.Image.Make") == "TesseraCam"
    assert tool("exiv2", "-pS", out).count("ICC_PROFILE") >= 1
    assert subprocess.run(["exiv2", "-pC", str(out)], capture_output=True).stdout == icc_profile()
    # The XMP goes in whole (main packet and extended parts) or is named as left out.
    assert "XMP" in said(report)
    assert "EXIF" in report["metadata"] and "ICC" in report["metadata"], report


def test_exif_tags_over_4_kb_survive_an_exif_over_64_kb(tmp_path):
    src = tmp_path / "big-exif.tif"
    photo(src)
    description = "d" * 70000
    exiv2_set(src, "set Exif.Image.Artist Ascii " + "a" * 5000, "set Exif.Image.ImageDescription Ascii " + description)
    for ext in ("png", "tif"):
        out = tmp_path / f"out.{ext}"
        report = apply_json(src, out)
        assert value(out, "Exif.Image.ImageDescription") == description, ext
        assert value(out, "Exif.Image.Artist") == "a" * 5000, ext
        assert "EXIF" in report["metadata"], report


def test_an_orientation_held_only_in_xmp_is_applied_or_left_as_it_was(tmp_path):
    src = tmp_path / "xmp-turned.jpg"
    photo(src)
    exiv2_set(src, "set Xmp.tiff.Orientation 6")
    assert value(src, "Exif.Image.Orientation") is None
    out = tmp_path / "out.jpg"
    apply_json(src, out)
    written = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    orientation = value(out, "Xmp.tiff.Orientation")
    if written.shape[:2] == (64, 40):  # turned upright: the tag must say so
        assert orientation in (None, "1"), orientation
        assert written[:16, -16:].mean(axis=(0, 1))[2] > 200  # the red block is now top right
    else:  # left as stored: the tag must still say how to turn it
        assert written.shape[:2] == (40, 64)
        assert orientation == "6", orientation


def test_xmp_that_does_not_parse_is_named_not_dropped_silently(tmp_path):
    src = tmp_path / "bad-xmp.jpg"
    photo(src)
    insert_segment(src, 0xE1, b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><rdf:RDF><rdf:Description broken")
    out = tmp_path / "out.jpg"
    report = apply_json(src, out)
    kept = b"<x:xmpmeta><rdf:RDF><rdf:Description broken" in out.read_bytes()
    assert kept or "XMP" in " ".join(report.get("metadata_left_out", [])), report


def test_iptc_is_carried_or_named(tmp_path):
    src = tmp_path / "iptc.jpg"
    photo(src)
    exiv2_set(src, "set Iptc.Application2.Caption String TesseraCaption")
    for ext in ("jpg", "png", "tif", "webp", "bmp"):
        out = tmp_path / f"out.{ext}"
        report = apply_json(src, out)
        kept = value(out, "Iptc.Application2.Caption") == "TesseraCaption"
        named = "IPTC" in " ".join(report.get("metadata_left_out", []))
        assert kept or named, (ext, report)
        assert kept == ("IPTC" in str(report["metadata"])), (ext, report)


def test_a_png_output_holds_the_profile_imagemagick_reads(tmp_path):
    src = tmp_path / "profiled.jpg"
    photo(src)
    (tmp_path / "profiled.icc").write_bytes(icc_profile())
    subprocess.run(["exiv2", "-iC", str(src)], check=True, capture_output=True)
    out = tmp_path / "out.png"
    report = apply_json(src, out)
    extracted = tmp_path / "extracted.icc"
    done = subprocess.run(["convert", str(out), str(extracted)], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert extracted.read_bytes() == icc_profile()
    assert "ICC" in report["metadata"], report


def test_what_the_report_calls_kept_is_what_the_output_holds(tmp_path):
    src = tmp_path / "all.png"
    photo(src)
    exiv2_set(src, "set Exif.Image.Make Ascii TesseraCam", "set Xmp.dc.title lang=x-default Title",
              "set Iptc.Application2.Caption String Caption")
    (tmp_path / "all.icc").write_bytes(icc_profile())
    subprocess.run(["exiv2", "-iC", str(src)], check=True, capture_output=True)
    for ext in ("jpg", "png", "tif", "webp", "bmp"):
        out = tmp_path / f"out.{ext}"
        report = apply_json(src, out)
        holds = {
            "EXIF": value(out, "Exif.Image.Make") == "TesseraCam",
            "XMP": value(out, "Xmp.dc.title") is not None,
            "IPTC": value(out, "Iptc.Application2.Caption") == "Caption",
        }
        for part, present in holds.items():
            assert (part in str(report["metadata"])) == present, (ext, part, report)
        for part in ("EXIF", "XMP", "ICC", "IPTC"):
            assert part in said(report), (ext, part, report)


def test_quality_and_compression_reach_the_file_with_icc_and_iptc_kept(tmp_path):
    """Every format with a choice, written with it from a photo carrying EXIF, IPTC and an ICC
    profile: ImageMagick reads the quality or compression asked for, exiv2 reads the metadata,
    and the report says the encoding."""
    src = tmp_path / "all.jpg"
    img = np.random.default_rng(5).integers(0, 256, (96, 128, 3), np.uint8)
    img = cv2.GaussianBlur(img, (0, 0), 2)
    assert cv2.imwrite(str(src), img)
    exiv2_set(src, "set Exif.Image.Make Ascii TesseraCam", "set Iptc.Application2.Caption String Caption")
    (tmp_path / "all.icc").write_bytes(icc_profile())
    subprocess.run(["exiv2", "-iC", str(src)], check=True, capture_output=True)
    cases = [("jpg", ["--quality", "40"], "%Q", "40", "JPEG quality 40"),
             ("jpg", ["--quality", "97"], "%Q", "97", "JPEG quality 97"),
             ("png", ["--compression", "0"], "%C", "Zip", "PNG compression level 0"),
             ("png", ["--compression", "9"], "%C", "Zip", "PNG compression level 9"),
             ("tif", ["--compression", "none"], "%C", "None", "TIFF uncompressed"),
             ("tif", ["--compression", "lzw"], "%C", "LZW", "TIFF with LZW compression"),
             ("tif", ["--compression", "deflate"], "%C", "Zip", "TIFF with Deflate compression"),
             ("webp", ["--quality", "60"], None, None, "WebP quality 60"),
             ("webp", ["--quality", "lossless"], None, None, "WebP lossless")]
    sizes = {}
    for ext, options, field, expected, words in cases:
        out = tmp_path / f"out-{ext}-{options[1]}.{ext}"
        done = run("apply", src, "-o", out, "--kernel", "1", "--device", "cpu", "--json", *options)
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert report["encoding"] == words, report
        sizes[(ext, options[1])] = out.stat().st_size
        if field is not None:
            assert tool("identify", "-format", field, out).strip() == expected, (ext, options)
        else:
            data = out.read_bytes()
            assert (b"VP8L" in data) == (options[1] == "lossless"), options
        extracted = tmp_path / f"{out.stem}.icc"
        convert = subprocess.run(["convert", str(out), str(extracted)], capture_output=True, text=True)
        assert convert.returncode == 0, convert.stderr
        assert extracted.read_bytes() == icc_profile(), (ext, options)
        assert "ICC" in report["metadata"], report
        assert value(out, "Exif.Image.Make") == "TesseraCam", (ext, options)
        iptc = value(out, "Iptc.Application2.Caption") == "Caption"
        assert iptc == ("IPTC" in str(report["metadata"])), (ext, options, report)
        if ext in ("jpg", "tif"):
            assert iptc, (ext, options)
    assert sizes[("jpg", "40")] < sizes[("jpg", "97")]
    assert sizes[("png", "9")] < sizes[("png", "0")]
    assert sizes[("tif", "deflate")] < sizes[("tif", "none")]
    assert sizes[("webp", "60")] < sizes[("webp", "lossless")]


def test_a_batch_takes_quality_and_compression_for_each_format(tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    photo(inputs / "a.png")
    photo(inputs / "b.tif")
    photo(inputs / "c.jpg")
    out = tmp_path / "out"
    done = run("batch", inputs, "-o", out, "--kernel", "1", "--device", "cpu", "--quality", "55",
               "--compression", "deflate")
    assert done.returncode == 0, done.stderr
    assert tool("identify", "-format", "%Q", out / "c-custom.jpg").strip() == "55"
    assert tool("identify", "-format", "%C", out / "b-custom.tif").strip() == "Zip"
    bad = run("batch", inputs, "-o", out, "--kernel", "1", "--quality", "0")
    assert bad.returncode == 2 and "--quality" in bad.stderr, bad.stderr


# ---- Decode budget and Ctrl+C ----

def scan_bomb(path, size=32768, scans=999):
    """A few KB claiming size x size pixels, progressive, with scans that are headers only."""
    ok, enc = cv2.imencode(".jpg", np.full((48, 64, 3), (20, 90, 200), np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, 90, cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    data = bytearray(enc.tobytes())
    sof = data.index(b"\xff\xc2")
    data[sof + 5:sof + 9] = struct.pack(">HH", size, size)
    last = data.rindex(b"\xff\xda")
    sos = bytes(data[last:last + 2 + struct.unpack(">H", data[last + 2:last + 4])[0]])
    existing = data.count(b"\xff\xda")
    path.write_bytes(bytes(data[:-2]) + sos * (scans - existing) + b"\xff\xd9")


def test_a_scan_bomb_inside_the_size_limits_is_refused_at_once(tmp_path):
    src = tmp_path / "scans.jpg"
    scan_bomb(src)
    assert src.stat().st_size < 16384
    started = time.monotonic()
    try:
        done = run("apply", src, "-o", tmp_path / "out.png", "--kernel", "1", "--device", "cpu", timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("the decode of an 11 KB file ran past 20 s")
    assert done.returncode == 1
    assert time.monotonic() - started < 5
    first = done.stderr.splitlines()[0]
    assert first.startswith("tessera-cli: ") and "scans.jpg" in first, done.stderr


def anon_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def test_one_ctrl_c_stops_a_batch_in_the_middle_of_a_long_decode(tmp_path):
    # A 48 MP progressive JPEG takes ~2.6 s to decode here. The decode is seen under way once the
    # process holds 32 MB of anonymous memory beyond the file's own bytes (the decoder's
    # coefficients filling in); from there it has 1.4-1.8 s left when nothing stops it, and the run
    # ends within ~15 ms when the cancel reaches it. An exit within 1 s means the decode stopped.
    (tmp_path / "in").mkdir()
    y, x = np.mgrid[0:6000, 0:8000]
    img = np.dstack([(x * 7 + y * 3) & 255, (x ^ y) & 255, (x * y) & 255]).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95, cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    del img, x, y
    (tmp_path / "in" / "big.jpg").write_bytes(enc.tobytes())
    threshold = len(enc) // 1024 + 32 * 1024
    report = tmp_path / "report.json"
    out = tmp_path / "out"
    proc = subprocess.Popen([CLI, "batch", str(tmp_path / "in"), "-o", str(out), "--kernel", "1", "--device", "cpu",
                             "--jobs", "1", "--report", str(report)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while anon_kib(proc.pid) <= threshold and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    assert proc.poll() is None, "the batch ended before the decode was seen"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    stderr = proc.communicate(timeout=60)[1]
    took = time.monotonic() - sent
    assert proc.returncode == 128 + signal.SIGINT, stderr
    assert took < 1.0, (took, stderr)
    doc = json.loads(report.read_text())
    assert doc["was_cancelled"] and doc["cancelled"] == 1, doc
    assert not out.exists() or not any(out.iterdir())


# ---- Messages ----

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def damaged_files(folder):
    """Files a user meets, each broken in its own way: name -> bytes."""
    files = {}
    good = {}
    img = np.random.default_rng(3).integers(0, 256, (64, 80, 3), dtype=np.uint8)
    for ext in (".png", ".jpg", ".tif", ".webp", ".exr", ".bmp"):
        pixels = img.astype(np.float32) / 255 if ext == ".exr" else img
        ok, enc = cv2.imencode(ext, pixels)
        assert ok, ext
        good[ext] = enc.tobytes()
    for ext, data in good.items():
        files["truncated" + ext] = data[: len(data) * 2 // 3]
        files["header-only" + ext] = data[:40]
    png = good[".png"]
    crc = bytearray(png)
    idat = png.index(b"IDAT")
    crc[idat + 10] ^= 0xFF
    files["crc-error.png"] = bytes(crc)
    files["zero-length.png"] = b""
    files["text.jpg"] = b"this is not an image\n" * 20
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return sorted(files)


def test_every_failure_begins_with_tesseras_line(tmp_path):
    names = damaged_files(tmp_path)
    assert len(names) == 15
    for name in names:
        done = run("apply", tmp_path / name, "-o", tmp_path / ("out-" + name + ".png"), "--kernel", "1",
                   "--device", "cpu")
        assert done.returncode == 1, (name, done.stderr)
        lines = done.stderr.splitlines()
        assert lines, name
        assert lines[0].startswith("tessera-cli: ") and name in lines[0], (name, done.stderr)
        assert len(lines) == 1 or os.environ.get("TESSERA_DIAGNOSTICS") == "1", (name, done.stderr)


def test_damage_a_library_recovers_from_prints_nothing(tmp_path):
    # A profile libpng refuses costs the profile; entropy data libjpeg resynchronises past costs
    # some blocks. Both still read, as OpenCV read them before; the libraries' own words go to
    # the diagnostics (TESSERA_DIAGNOSTICS=1), not in front of the user.
    ok, enc = cv2.imencode(".png", np.full((8, 8, 3), 90, np.uint8))
    png = enc.tobytes()
    iccp = png_chunk(b"iCCP", b"\0\0" + zlib.compress(b"not a profile"))  # an empty name, no profile
    (tmp_path / "bad-profile.png").write_bytes(png[:33] + iccp + png[33:])
    ok, enc = cv2.imencode(".jpg", np.random.default_rng(3).integers(0, 256, (64, 80, 3), dtype=np.uint8))
    jpg = bytearray(enc.tobytes())
    sos = jpg.index(b"\xff\xda")
    for i in range(sos + 20, sos + 400):
        jpg[i] = 0xFF if i % 2 else 0x00
    (tmp_path / "garbled.jpg").write_bytes(bytes(jpg))
    for name in ("bad-profile.png", "garbled.jpg"):
        done = run("apply", tmp_path / name, "-o", tmp_path / "out.png", "--kernel", "1", "--device", "cpu")
        assert done.returncode == 0, (name, done.stderr)
        assert done.stderr == "", name
