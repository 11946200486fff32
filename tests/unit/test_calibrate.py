"""The calibrated machine model without a GPU: constants fitted from the committed H200 profiles, applied
to the costs as fitted, written and read back with their provenance, used by ``twill optimize
--calibrated`` and never without it; bad input to ``twill calibrate`` is one line and exit 2."""
import dataclasses
import json
import math
from pathlib import Path

import pytest

from profiling.profile import load_profile
from twill.cli import main
from twill.errors import MachineError
from twill.graph.io import graph_from_dict
from twill.machine.calibrate import (Calibration, Source, calibration_path, fit_latency, op_classes, rates_sha256,
                                     read_calibration, samples, to_toml)
from twill.machine.cost import annotate_costs, op_cost
from twill.machine.model import load_machine
from twill.util import sha256

ROOT = Path(__file__).resolve().parents[2]
PROFILES = ROOT / "bench/results/profiles"
FA3, GEMM = PROFILES / "profile-fa3-h200-global/profile.json", PROFILES / "profile-gemm-h200/profile.json"
GRAPHS = {FA3: ROOT / "bench/results/schedules/fa3-h200/graph.json",
          GEMM: ROOT / "bench/results/schedules/gemm-h200/graph.json"}


def _graph(profile):
    return graph_from_dict(json.loads(GRAPHS[profile].read_text()))


@pytest.fixture(scope="module")
def fitted():
    m = load_machine("h200")
    data = [x for p in (FA3, GEMM) for x in samples(_graph(p), load_profile(str(p)), Source.of(p), m)]
    latency, nodes = fit_latency(data)
    return m, Calibration("h200", rates_sha256(m), latency, (), nodes, (Source.of(FA3), Source.of(GEMM)))


def test_the_factors_are_the_medians_of_measured_over_modelled(fitted):
    _, cal = fitted
    by = {c.key: c for c in cal.latency}
    fa3, gemm = load_profile(str(FA3)), load_profile(str(GEMM))
    # the exponential is a synchronous op: its region is its latency (no wait goes to it)
    assert by["sfu.tile"].factor == pytest.approx(fa3["nodes"]["sfu0_p"]["median_cycles"] / 1280, abs=1e-4)
    # the GEMM's one dot takes both of the loop's waits: the wgmma wait and the TMA barrier wait
    waits = sum(w["median_cycles"] for w in gemm["waits"].values())
    assert by["dot.f16.128x256x64"].factor == pytest.approx(
        (gemm["nodes"]["dot0_acc"]["median_cycles"] + waits) / 1024, abs=1e-4)
    # two FA dots of one class: the geometric median of their two ratios, their residuals symmetric
    qk = by["dot.f16.128x128x128"]
    assert qk.nodes == 2 and qk.residual > 0
    r = [n.residual for n in cal.nodes if n.key == qk.key]
    assert len(r) == 2 and r[0] * r[1] < 0
    # a coarser class pools the nodes of every finer one
    assert by["dot.f16"].nodes == 3 and by["dot"].nodes == 3


def test_costs_change_exactly_as_fitted(fitted):
    m, cal = fitted
    g = _graph(FA3)
    plain, cal_costed = annotate_costs(g, m), annotate_costs(g, m, scale=cal.scale)
    for a, b in zip(plain.ops, cal_costed.ops):
        c = cal.latency_of(b)
        assert c is not None and c.key == op_classes(b)[0]
        assert b.cost_source == "calibrated" and b.attr("calibration") == c.key
        model = op_cost(b, m)[0]
        want = max(1, round(model * c.factor))
        assert (b.attr("latency_cycles") if b.streaming else b.cycles) == want
        for ra, rb in zip(a.rrt, b.rrt):      # synchronous units stretched, the tensor core and TMA kept
            assert rb.length == (max(1, round(ra.length * c.factor)) if ra.unit in ("alu", "sfu", "lsu") else ra.length)
    delays = {(d.src, d.dst): d.delay for d in cal_costed.deps}
    assert all(delays[(d.src, d.dst)] == cal_costed.op(d.src).cycles for d in g.deps)
    assert [o.cost_source for o in annotate_costs(g, m).ops] == ["model"] * len(g.ops)   # never without asking


def test_the_calibration_file_round_trips_with_its_provenance(fitted, tmp_path):
    m, cal = fitted
    f = tmp_path / "h200.toml"
    f.write_text(to_toml(cal))
    back = read_calibration(f, m)
    assert back == cal and back.path == str(f) and back.sha256 == sha256(f.read_text())
    shas = {sha256(p.read_bytes()): p.resolve() for p in (FA3, GEMM)}
    for c in back.latency:
        assert c.nodes >= 1 and math.isfinite(c.residual) and c.sources
        assert all(Path(s.path).resolve() == shas[s.sha256] for s in c.sources)
    assert {s.sha256 for s in back.profiles} == set(shas)


def test_a_calibration_of_other_rates_or_another_machine_is_refused(fitted, tmp_path):
    m, cal = fitted
    f = tmp_path / "h200.toml"
    f.write_text(to_toml(cal))
    faster = dataclasses.replace(m, rate_table=tuple((k, v * 2 if k == "alu_ops" else v) for k, v in m.rate_table))
    with pytest.raises(MachineError, match="other machine rates"):
        read_calibration(f, faster)
    with pytest.raises(MachineError, match="another machine"):
        read_calibration(f, load_machine("h100"))


def test_the_committed_calibration_is_the_committed_profiles(fitted):
    """twill/machine/calibration/h200.toml was fitted from the two profiles the README names."""
    m, cal = fitted
    committed = read_calibration(calibration_path("h200"), m)

    def shown(cs):
        return [(c.key, c.factor, c.nodes, c.residual, tuple(s.sha256 for s in c.sources)) for c in cs]
    assert shown(committed.latency) == shown(cal.latency)
    assert [(n.node, n.key, n.fitted) for n in committed.nodes] == [(n.node, n.key, n.fitted) for n in cal.nodes]
    assert shown(committed.throughput) == [("tc", 1.0, 1, 0.0, (sha256(GEMM.read_bytes()),))]


def _one_line(capsys, argv, expect):
    rc = main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and expect in err[0], err
    assert err[0].startswith(f"twill {argv[0]}: error: ")


def test_a_profile_of_another_arch_is_refused_in_one_line(tmp_path, capsys):
    d = json.loads(GEMM.read_text())
    d["arch"] = "h100"
    other = tmp_path / "profile.json"
    other.write_text(json.dumps(d))
    out = tmp_path / "cal.toml"
    _one_line(capsys, ["calibrate", str(other), "--arch", "h200", "-o", str(out)], "profile is of another arch")
    assert not out.exists()


def test_missing_and_malformed_profiles_are_refused_in_one_line(tmp_path, capsys):
    _one_line(capsys, ["calibrate", str(tmp_path / "none.json"), "--arch", "h200"], "no such profile")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"schema": "twill.graph/1"}))
    _one_line(capsys, ["calibrate", str(bad), "--arch", "h200"], "not a twill profile")
    _one_line(capsys, ["optimize", str(GRAPHS[GEMM]), "--arch", "h100", "--calibrated", "-o", str(tmp_path / "o")],
              "no calibration for this machine")


@pytest.mark.slow
def test_calibrate_writes_the_file_and_optimize_uses_it(tmp_path, capsys):
    """End to end: the kernels rebuilt with Triton (their loop graph matched to the profiles' by
    --graph), the fit written, and a calibrated solve recording the constants it used."""
    pytest.importorskip("triton")
    out = tmp_path / "h200.toml"
    argv = ["calibrate", str(FA3), str(GEMM), "--arch", "h200", "--graph", str(GRAPHS[FA3]), "--graph",
            str(GRAPHS[GEMM]), "-o", str(out), "--leave-one-out", "--quiet"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "dot.f16.128x128x128" in text and "profile-gemm-h200" in text and "leave one out" in text
    cal = read_calibration(out, load_machine("h200"))
    assert [c.key for c in cal.throughput] == ["tc"] and cal.throughput[0].factor == pytest.approx(1.0)
    res = tmp_path / "opt"
    assert main(["optimize", str(GRAPHS[GEMM]), "--arch", "h200", "--calibrated", "--swp-only", "-o", str(res),
                 "--quiet"]) == 0
    s = json.loads((res / "schedule.json").read_text())
    assert s["cost_sources"] == {"calibrated": ["tma_load0_a", "tma_load1_b", "dot0_acc"]}
    assert s["calibration"]["path"] == str(calibration_path("h200"))
    assert s["calibration"]["constants"]["dot0_acc"] == "dot.f16.128x256x64, throughput.tc"
