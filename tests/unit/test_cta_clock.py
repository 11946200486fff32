"""The in-kernel clock (``profiling.cta_clock``): the probed source compiles for sm_90 with its reads around the
partitions, a kernel it cannot read is refused in one line, and a launch's rows give its clock and cycles."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from profiling.cta_clock import call_row, probed
from twill.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
G = ROOT / "bench/results/gluon"


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["fa3", "gemm"])
def test_the_probed_kernel_compiles_with_its_reads_outside_the_partitions(variant):
    from profiling.gluon import compile_instrumented

    source = (G / variant / "kernel_gluon.py").read_text()
    gj = json.loads((G / variant / "gluon.json").read_text())
    kd = dict(gj["gluon"]["kernel"])
    kd["signature"] = {"twill_probe": "*i64", **kd["signature"]}
    ptx = compile_instrumented(probed(source), kd).asm["ptx"]
    assert ptx.count("%globaltimer") == 2 and ptx.count("%clock64") == 2
    text = probed(source)
    body = text[text.index("def twill_kernel(twill_probe, "):]
    # the reads sit around the one call that starts the partitions: none inside a partition's function
    assert body.index("twill_c0 =") < body.index("gl.warp_specialize([") < body.index("twill_c1 =")
    assert text.count("%clock64") == 2 and source.count("%clock64") == 0


def test_a_kernel_launched_one_cta_per_tile_is_refused_in_one_line():
    source = (G / "awq_gemm" / "kernel_gluon.py").read_text()
    assert "PERSISTENT = False" in source
    with pytest.raises(InputError) as e:
        probed(source)
    assert "persistent warp-specialized" in str(e.value) and "\n" not in str(e.value)


def test_a_launch_is_timed_by_its_busiest_ctas():
    # two CTAs ran 3 tiles, one ran 2 (the last round): the busiest set the launch's time
    rows = [[100, 3100, 0, 2000, 3], [0, 2900, 10, 1960, 3], [0, 1800, 0, 1200, 2], [0, 0, 0, 0, 0]]
    r = call_row(rows, 0.0021, per_tile=10)
    assert r["cycles_per_iteration"] == pytest.approx((3000 / 30 + 2900 / 30) / 2)
    assert r["ghz"] == pytest.approx(1.5) and r["span_ms"] == pytest.approx(0.002) and r["event_ms"] == 0.0021
    assert call_row([[0, 0, 0, 0, 0]], 1.0, 10) is None


def test_validate_sets_the_whole_kernel_against_both_predictions():
    from twill.validate_gluon import _note_in_kernel

    r = {"predicted_iteration_cycles": 2045.0, "calibrated_iteration_cycles": 2533.0,
         "critical_path": {"explanation": "as predicted"},
         "in_kernel": {"calls": 20, "cycles_per_iteration": 2514.0, "ghz": 1.438}}
    _note_in_kernel(r)
    assert r["in_kernel"]["error_predicted"] == pytest.approx((2514 - 2045) / 2045, abs=1e-4)
    assert r["in_kernel"]["error_calibrated"] == pytest.approx((2514 - 2533) / 2533, abs=1e-4)
    assert "2514 cycles an iteration at 1.438 GHz" in r["critical_path"]["explanation"]
    empty = {"critical_path": {"explanation": "x"}, "in_kernel": None}
    _note_in_kernel(empty)
    assert empty["critical_path"]["explanation"] == "x"


def test_validate_reads_no_clock_where_the_probe_cannot_and_says_nothing():
    """Without ``loop_iterations`` (the iterations a tile) or for a kernel launched one CTA a tile, validate's
    in-kernel step is skipped before any GPU work (``make_inputs`` is never called)."""
    from types import SimpleNamespace

    from twill.validate_gluon import _in_kernel

    def boom(**_):
        raise AssertionError("no GPU work expected")
    fa3 = (G / "fa3" / "kernel_gluon.py").read_text()
    said = []
    assert _in_kernel(SimpleNamespace(make_inputs=boom), "_attn_fwd", fa3, said.append) is None
    one_cta = (G / "awq_gemm" / "kernel_gluon.py").read_text()
    mod = SimpleNamespace(make_inputs=boom, loop_iterations=lambda **_: 4, PROBLEM={})
    assert _in_kernel(mod, "awq_gemm_kernel", one_cta, said.append) is None and not said
