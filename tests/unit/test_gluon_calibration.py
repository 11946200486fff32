"""The Gluon replay's calibration (codegen/gluon/calibration.py) on the committed H200 profiles: the period it
takes as measured, the tensor factor that reproduces it, the estimator, and the committed file it writes."""
from __future__ import annotations

import dataclasses
import json
import math
import sys
from pathlib import Path

import pytest

from codegen.gluon.calibration import ATOMIC, Calibration, Profiled, fit, leave_one_out, op_class, same_kernel
from codegen.gluon.replay import replay

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from bench.gluon_calibrate import profiled  # noqa: E402


@pytest.fixture(scope="module")
def profiles() -> dict[str, Profiled]:
    return {p.label: p for p in profiled()}


def test_the_measured_period_is_each_runs_period_over_its_overhead(profiles):
    # run 11's FA forward: the producer's combined period (3330) comes from runs its records slowed 1.11-1.28x;
    # the runs' periods over their overheads have a median of ~2533, as the timed kernels' 6-7 % over run 7 say
    p = profiles["fa3-run11"]
    combined = max(v["period_cycles"] for v in p.profile["combined"]["partitions"].values())
    assert combined > 3300
    est = sorted(max(v["period_cycles"] for v in r["summary"]["partitions"].values()) / r["overhead"]
                 for r in p.profile["runs"])
    assert p.measured_period() == pytest.approx((est[13] + est[14]) / 2)
    assert p.measured_period() < profiles["fa3-turns-run7"].measured_period()


def test_a_profiles_own_tensor_factor_replays_its_measured_period(profiles):
    cal = fit([profiles["gemm-run11"]])
    f = cal.fitted_from[0]["tensor_factor"]
    assert f is not None and cal.tensor == {"dot.128x256x64": f}
    p = profiles["gemm-run11"]
    assert replay(p.source, p.signature, cal.costs(p)).iteration() == pytest.approx(p.measured_period(), rel=2e-3)
    # and the model's tensor-core cycles are what it multiplies
    base = dataclasses.replace(cal, tensor={})
    dots = [n["id"] for n in p.gluon["graph"]["nodes"] if n["kind"] == "dot"]
    assert all(cal.costs(p).tensor[d] == pytest.approx(base.costs(p).tensor[d] * f) for d in dots)


def test_node_factors_are_geometric_medians_of_measured_over_model(profiles):
    p = profiles["fa3-run11"]
    cal = fit([p])
    nodes = {n["id"]: n for n in p.gluon["graph"]["nodes"]}
    ratios = [m / (nodes[i]["cycles"] * p.unit) for i, m in p.regions().items()
              if op_class(nodes[i]) == "sfu.64x128"]
    assert len(ratios) == 2
    assert cal.node["sfu.64x128"] == pytest.approx(math.sqrt(ratios[0] * ratios[1]), rel=1e-3)


def test_a_kernel_the_replay_cannot_reach_gets_no_tensor_factor(profiles):
    # the FA backward of run 6 waits on pointer loads and atomics the replay does not model: no factor in range
    cal = fit([profiles["fa_bwd-run6"]])
    assert cal.fitted_from[0]["tensor_factor"] is None and cal.tensor == {}


def test_the_committed_calibration_is_what_the_committed_profiles_give(profiles):
    committed = json.loads((ROOT / "twill/machine/calibration/h200-gluon.json").read_text())
    import os
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        fitted = fit(list(profiles.values()), committed.get("smem_rate", 0.0), committed["default_issue"]).to_dict()
    finally:
        os.chdir(cwd)
    assert fitted == committed
    assert Calibration.from_dict(committed).to_dict() == committed


def test_leaving_the_kernel_out_leaves_out_its_other_runs_on_either_gpu(profiles):
    # runs 11 and 12 profiled one FA forward, run 211 the same kernel on an H100: held out as a kernel, none of them
    # predicts another; held out as a run, the others stay in the fit
    fa11, fa12, fa211, gemm = (profiles[k] for k in ("fa3-run11", "fa3-run12", "fa3-run211-h100", "gemm-run11"))
    assert same_kernel(fa11, fa12) and same_kernel(fa12, fa211) and not same_kernel(fa11, gemm)
    runs = leave_one_out([fa11, fa12, gemm])
    kernels = leave_one_out([fa11, fa12, gemm], whole_kernel=True)
    assert runs[0]["fitted_on"] == ["fa3-run12", "gemm-run11"] and kernels[0]["fitted_on"] == ["gemm-run11"]
    assert runs[0]["held_out"] is not None and kernels[0]["held_out"] is None    # no other profile has its dot shapes
    assert kernels[2]["fitted_on"] == ["fa3-run11", "fa3-run12"]


def test_an_output_in_a_missing_directory_is_one_line_and_nothing_is_fitted(tmp_path):
    import subprocess
    r = subprocess.run([sys.executable, str(ROOT / "bench/gluon_calibrate.py"), "--out", str(tmp_path / "no" / "c.json")],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1
    assert "existing directory" in r.stderr and not (tmp_path / "no").exists()


def test_a_negative_shared_memory_rate_is_one_line_and_nothing_is_fitted(tmp_path):
    import subprocess
    r = subprocess.run([sys.executable, str(ROOT / "bench/gluon_calibrate.py"), "--smem-rate", "-3", "--out",
                        str(tmp_path / "c.json")], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1
    assert "--smem-rate of 0 or more" in r.stderr and not (tmp_path / "c.json").exists()


def _committed() -> Calibration:
    return Calibration.from_dict(json.loads((ROOT / "twill/machine/calibration/h200-gluon.json").read_text()))


def test_the_calibration_scales_the_solvers_costs_by_op_class():
    # what `twill optimize --calibrated` solves with on the Gluon route: the model's cycles times the class's factor;
    # a dot's tensor-core reservation scaled with it, another op's reservations the model's
    from twill.graph.io import graph_from_dict
    from twill.machine.cost import annotate_costs, op_cost
    from twill.machine.model import load_machine
    m, cal = load_machine("h200"), _committed()
    g = graph_from_dict(json.loads((ROOT / "bench/results/gluon/fa3/gluon.json").read_text())["graph"])
    costed = annotate_costs(g, m, scale=cal.scale)
    sfu, dot = costed.op("sfu0_p_s0"), costed.op("dot0_qk_s0")
    (sfu_model, sfu_rrt), (dot_model, _) = op_cost(sfu, m), op_cost(dot, m)
    assert sfu.cost_source == "calibrated" and sfu.attr("calibration") == "gluon.node.sfu.64x128"
    assert sfu.cycles == round(sfu_model * cal.node["sfu.64x128"]) != sfu_model and sfu.rrt == sfu_rrt
    f = cal.tensor["dot.64x128x128"]
    assert dot.cycles == round(dot_model * f) and [r.length for r in dot.rrt] == [round(dot_model * f)]
    assert cal.unfitted(costed.ops) == []


def test_a_dot_class_no_profile_measured_is_named_unfitted_and_keeps_the_models_cost():
    from twill.graph.model import Op
    cal = _committed()
    dot = Op("d", "dot", "tc", shape=(64, 192), attrs=(("m", 64), ("n", 192), ("k", 64), ("a_dtype", "f16")))
    assert cal.scale(dot) is None and cal.unfitted([dot]) == ["dot.64x192x64"]


def test_the_gluon_calibration_file_is_found_per_machine_and_a_bad_one_refused(tmp_path):
    from codegen.gluon.calibration import load_for
    from twill.errors import MachineError
    from twill.machine.model import load_machine
    cal, path = load_for(load_machine("h200"))
    assert path.endswith("h200-gluon.json") and cal.tensor == _committed().tensor
    assert load_for(load_machine("h100")) is None
    with pytest.raises(MachineError, match="no Gluon calibration file"):
        load_for(load_machine("h200"), tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"schema": "twill.calibration/1"}))
    with pytest.raises(MachineError, match="not a Gluon calibration"):
        load_for(load_machine("h200"), bad)


def _calibrated_gemm(tmp_path, capsys, monkeypatch, cal: Calibration) -> dict:
    import twill.gluon_route as route
    from twill.cli import main
    monkeypatch.setattr(route, "load_for", lambda m: (cal, "test calibration"))
    out = tmp_path / "gemm"
    rc = main(["optimize", str(ROOT / "kernels/gemm.py"), "--arch", "h200", "--calibrated", "--emit", "gluon",
               "-o", str(out), "--quiet"])
    assert rc == 0, capsys.readouterr().err
    return json.loads((out / "gluon.json").read_text())["gluon"]


def _best(cands: list, subtiles: int) -> float:
    return min(c["iteration_cycles"] for c in cands if c["subtiles"] == subtiles and c["iteration_cycles"])


def test_the_calibrated_route_ranks_a_kernel_whose_dots_were_never_measured_after_the_others(tmp_path, capsys,
                                                                                             monkeypatch):
    # without run 12's profile of the GEMM split in two consumers (dot.64x256x64) the model's tensor-core cost stands
    # there: 1024 cycles predicted against the measured class's ~1077, where run 12 measured 1827
    cal = _committed()
    cal.tensor.pop("dot.64x256x64")
    g = _calibrated_gemm(tmp_path, capsys, monkeypatch, cal)
    two = [c for c in g["candidates"] if c["subtiles"] == 2 and c["iteration_cycles"]]
    assert two and all(c["unfitted_dot_classes"] == ["dot.64x256x64"] and c["costs"] == "calibrated" for c in two)
    assert _best(g["candidates"], 2) < _best(g["candidates"], 1) and g["chosen"] == 1
    assert any(d.startswith("costs: calibrated") and "no factor for" in d for d in g["kernel"]["decisions"])


def test_with_the_measured_factor_the_calibrated_route_predicts_the_two_consumer_gemm_slower(tmp_path, capsys,
                                                                                            monkeypatch):
    g = _calibrated_gemm(tmp_path, capsys, monkeypatch, _committed())
    assert not any(c["unfitted_dot_classes"] for c in g["candidates"])
    assert _best(g["candidates"], 2) > 1.5 * _best(g["candidates"], 1) and g["chosen"] == 1


def test_a_profile_whose_anchor_gives_no_period_takes_the_loop_runs_or_says_so_in_one_line():
    # run 152: flaggems_bmm's and fa2_triton_bwd's anchor regions were timed once a CTA, so no run had a period; the
    # loop run had one (validate had raised a TypeError)
    from twill.errors import ProfileError

    prof = {"runs": [{"summary": {"partitions": {"0": {"period_cycles": None}}}, "overhead": 1.0}],
            "combined": {"partitions": {"0": {"period_cycles": None}}},
            "loop_run": {"periods": {"0": {"cycles_per_iteration": 7784.8}}}}
    assert Profiled("x", "", {}, prof).measured_period() == 7784.8
    with pytest.raises(ProfileError, match="gives the loop no period") as e:
        Profiled("x", "", {}, {k: v for k, v in prof.items() if k != "loop_run"}).measured_period()
    assert "\n" not in str(e.value)


def test_the_arrive_is_priced_from_a_sums_profiles_timed_arrives(profiles):
    """A region sums profile times the statements between the regions: its gap regions that arrive price an arrive
    (cycles over arrives, the median); a Proton profile has none, and the estimate stays."""
    p = profiles["fa3-run11"]
    assert p.arrive_costs() == [] and fit([p]).arrive == 40.0
    regions = dict(p.profile["combined"]["regions"])
    regions["p0:gap:arrive:v_empty"] = {"partition": 0, "node": None, "kind": "gap", "cycles_per_iteration": 280.0,
                                        "net_cycles_per_iteration": 280.0, "arrives": 2}
    regions["p1:gap:arrive:v_empty"] = {"partition": 1, "node": None, "kind": "gap", "cycles_per_iteration": 300.0,
                                        "net_cycles_per_iteration": 300.0, "arrives": 2}
    regions["p2:gap:other"] = {"partition": 2, "node": None, "kind": "gap", "cycles_per_iteration": 90.0,
                               "net_cycles_per_iteration": 90.0, "arrives": 0}
    sums = dataclasses.replace(p, profile=dict(p.profile, combined=dict(p.profile["combined"], regions=regions)))
    assert sorted(sums.arrive_costs()) == [140.0, 150.0]
    cal = fit([sums])
    assert cal.arrive == 145.0 and cal.samples["arrive"] == 2
    assert cal.costs(sums).arrive == 145.0
    # the tensor factor is fitted with the arrive so priced: the replay still meets the measured period
    assert cal.fitted_from[0]["tensor_factor"] is not None
    assert cal.fitted_from[0]["tensor_factor"] != fit([p]).fitted_from[0]["tensor_factor"]
    assert replay(sums.source, sums.signature, cal.costs(sums)).iteration() == pytest.approx(
        sums.measured_period(), rel=5e-3)


def test_a_reducers_atomic_call_is_priced_from_its_rows_regions():
    # a sums profile times the reducer's rows (``p3:store0``: 32 calls an iteration) and the producer's (``p2:store0``:
    # 32 calls on 22 of 24 trips); each region's cycles over its calls per iteration price an atomic call, the median
    # over the regions; a profile without such a region keeps the estimate
    d = ROOT / "bench/results/gluon/fa_bwd"
    regions = {"p3:store0": {"partition": 3, "node": "store0", "kind": "node", "cycles_per_iteration": 1600.0,
                             "net_cycles_per_iteration": 1600.0},
               "p2:store0": {"partition": 2, "node": "store0", "kind": "node", "cycles_per_iteration": 1760.0,
                             "net_cycles_per_iteration": 1760.0},
               "p0:store0_s0": {"partition": 0, "node": "store0_s0", "kind": "node", "cycles_per_iteration": 90.0,
                                "net_cycles_per_iteration": 90.0}}
    prof = {"combined": {"regions": regions, "partitions": {"0": {"period_cycles": 4600.0}}}}
    p = Profiled("fa_bwd-sums", (d / "kernel_gluon.py").read_text(), json.loads((d / "gluon.json").read_text()), prof)
    assert sorted(p.atomic_costs()) == pytest.approx([50.0, 60.0])
    cal = fit([p])
    assert cal.atomic == 55.0 and cal.samples["atomic"] == 2 and cal.costs(p).atomic == 55.0
    assert Calibration.from_dict(cal.to_dict()).atomic == 55.0
    assert fit([dataclasses.replace(p, profile={"combined": {"regions": {}, "partitions": prof["combined"][
        "partitions"]}})]).atomic == ATOMIC


def test_a_wgmma_region_below_its_runs_resolution_prices_no_issue(profiles):
    # run 6's FA backward timed its wgmmas' regions at 383-897 cycles and its empty region at 1344: each nets 0, which
    # says nothing of the wgmma's issue (a fence, its instructions, a commit): the class takes the default issue, not
    # the 1 cycle the net is clamped to; an ALU op's region so clamped still prices its class (it is small)
    p = profiles["fa_bwd-run6"]
    below = p.unresolved()
    assert {"dot1_dv_s0", "dot2_dpT_s1", "dot3_dk_s1"} <= below and "sfu0_pT_s1" not in below
    cal = fit([p], 128.0, 191.0)
    assert "dot.64x128x64" not in cal.issue and "dot.64x64x128" not in cal.issue
    assert cal.node["convert.64x64"] < 0.1        # its converts' regions, clamped to 1 cycle: small, so priced
    costs = cal.costs(p)
    assert costs.issue["dot1_dv_s0"] == 191.0 and fit([p], 128.0, 0.0).costs(p).issue["dot1_dv_s0"] == 0.0
    assert Calibration.from_dict(cal.to_dict()).default_issue == 191.0
