# SPDX-License-Identifier: Apache-2.0
"""tessera.last_run(): the report of the calling thread's last run, the same shape for every
run, and the Chrome trace it writes in the format of `tessera-cli apply --trace`."""

import json
import subprocess
import threading

import numpy as np
import pytest

import tessera
from conftest import random_image


def x_events(trace):
    return [e for e in trace["traceEvents"] if e["ph"] == "X"]


def test_a_cpu_run_reports_where_how_and_how_long(rng):
    image = random_image(rng, (40, 30, 3), np.uint8)
    tessera.apply(image, tessera.Chain(["box", tessera.Filter("gaussian", sigma=1.2)]), device="cpu")
    report = tessera.last_run()
    assert isinstance(report, tessera.RunReport)
    assert report.where == "cpu"
    assert report.placement == "streamed"
    assert report.devices == ["cpu"]
    assert report.fallback == "" and report.events == []
    assert report.fallback_policy == "cpu"
    assert report.wall_ms > 0.0
    assert report.host_ms > 0.0 and report.kernel_ms == 0.0
    assert report.records, "a CPU run records its host work"
    for r in report.records:
        assert r["device"] == -1 and r["phase"] == "host"
        assert r["end_us"] >= r["begin_us"]
    # Every pixel of the image is in some record's tile.
    assert sum(r["width"] * r["height"] for r in report.records) >= 40 * 30
    assert set(report.as_dict()) >= {"where", "placement", "devices", "methods", "step_methods", "wall_ms",
                                     "fallback", "records"}


def test_each_run_replaces_the_report_and_a_failed_call_keeps_the_last(rng):
    small = random_image(rng, (8, 8), np.float32)
    tessera.apply(small, "box", device="cpu")
    first = tessera.last_run()
    tessera.apply(random_image(rng, (16, 24), np.float32), "box", device="cpu")
    second = tessera.last_run()
    assert (first.records[0]["width"], first.records[0]["height"]) == (8, 8)
    assert (second.records[0]["width"], second.records[0]["height"]) == (24, 16)
    with pytest.raises(ValueError):
        tessera.apply(small, "box", border="nowhere", device="cpu")
    assert tessera.last_run().records == second.records


def test_reports_belong_to_their_thread(rng):
    seen = {}

    def work():
        seen["before"] = tessera.last_run()
        tessera.apply(random_image(rng, (5, 7), np.uint8), "box", device="cpu")
        seen["after"] = tessera.last_run()

    tessera.apply(random_image(rng, (9, 9), np.uint8), "box", device="cpu")
    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert seen["before"] is None
    assert (seen["after"].records[0]["width"], seen["after"].records[0]["height"]) == (7, 5)
    assert (tessera.last_run().records[0]["width"], tessera.last_run().records[0]["height"]) == (9, 9)


def test_the_trace_file_is_chrome_json_with_an_event_per_record(rng, tmp_path):
    image = random_image(rng, (33, 47, 4), np.uint16)
    tessera.apply(image, tessera.Chain(["box", "sharpen"]), device="cpu")
    report = tessera.last_run()
    path = report.write_trace(tmp_path / "run.json")
    trace = json.loads(open(path, encoding="utf-8").read())
    assert trace["displayTimeUnit"] == "ms"
    events = x_events(trace)
    assert len(events) == len(report.records)
    for event, record in zip(events, report.records):
        assert event["pid"] == 1000 and event["tid"] == record["stream"]
        assert event["cat"] == "host"
        assert event["ts"] == pytest.approx(record["begin_us"])
        assert event["dur"] == pytest.approx(record["end_us"] - record["begin_us"])
        assert event["args"]["width"] == record["width"] and event["args"]["phase"] == "host"
    names = {(e["name"], e["args"].get("name")) for e in trace["traceEvents"] if e["ph"] == "M"}
    assert ("process_name", "CPU") in names and ("thread_name", "thread 0") in names


def test_the_trace_has_the_shape_the_cli_writes(cli, rng, tmp_path):
    cv2 = pytest.importorskip("cv2", reason="python3-opencv writes the CLI's input file")
    image = random_image(rng, (21, 34), np.uint8)
    src, dst, cli_trace = tmp_path / "in.tif", tmp_path / "out.tif", tmp_path / "cli.json"
    assert cv2.imwrite(str(src), image)
    run = subprocess.run([cli, "apply", str(src), "-o", str(dst), "--filter", "box", "--device", "cpu", "--trace",
                          str(cli_trace)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    theirs = json.loads(cli_trace.read_text())
    tessera.apply(image, "box", device="cpu")
    ours = json.loads(tessera.last_run().chrome_trace())
    assert set(ours) == set(theirs)
    for a, b in zip(x_events(ours), x_events(theirs)):
        assert set(a) == set(b)
        assert set(a["args"]) == set(b["args"])
        assert (a["name"], a["cat"], a["pid"], a["tid"]) == (b["name"], b["cat"], b["pid"], b["tid"])
    meta = lambda t: sorted((e["name"], json.dumps(e["args"])) for e in t["traceEvents"] if e["ph"] == "M")
    assert meta(ours) == meta(theirs)


def test_step_timing_is_a_switch_that_says_its_previous_state():
    assert tessera.set_step_timing(True) is False
    try:
        assert tessera.set_step_timing(True) is True
    finally:
        tessera.set_step_timing(False)
    assert tessera.set_step_timing(False) is False
