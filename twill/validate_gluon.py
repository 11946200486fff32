"""``twill validate`` of a Gluon kernel twill wrote (a ``twill optimize`` directory with ``kernel_gluon.py``):
correct, how fast, and per partition, measured against predicted.

1. On the GPU: correctness (two seeds, the kernel file's small and real problems, outputs poisoned with NaN)
   against the kernel file's ``reference``; speed at its ``PROBLEM`` against Triton's default and best of a few
   configurations and the library (cuDNN SDPA for an attention forward, cuBLAS for a GEMM); the per-partition
   Proton profile (``profiling.gluon_profile``: subset runs at a bounded overhead, every record kept).
   Offline, ``--profile P`` reads a profile made before (``bench/gluon_profile.py``) instead of running one.
2. The comparison (``compare``, no GPU): per partition, the predicted period, busy cycles and waits (the kernel's
   replay with the costs the solver used, ``codegen.gluon.replay``) against the measured ones (each run's period
   over its overhead; busy = the partition's node regions net of the record cost; waits = its wait regions);
   per node, predicted against measured cycles; the bound, predicted and measured: the partition or the tensor
   core busy the largest share of the iteration (the tensor core's time is the model's: Proton does not see it).

Writes ``validation.json`` (schema ``twill.validation/1``, ``route: "gluon"``) and ``gluon.html`` with the
per-partition overlay; nothing half-written on failure. Imports no solver.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any, Callable, Mapping

from codegen.gluon.calibration import Profiled, held_out, load_for, profile_of, refitted
from codegen.gluon.generate import GluonKernel, chosen_candidate, compile_offline
from codegen.gluon.protocol import ProtocolError
from codegen.gluon.replay import UNIT_TURN, Costs, model_costs, replay
from codegen.gluon.sass import wgmma_loops
from profiling.check import output_checks
from profiling.cta_clock import measure as measure_in_kernel
from profiling.cta_clock import probed
from profiling.gluon import load_source, scopes_of
from profiling.gluon_profile import GluonProfileOptions, profile_variant
from profiling.gluon_sums_run import sums_profile
from profiling.kernel import kernel_module
from profiling.run import require_gpu
from profiling.stalls import attribute as attribute_stalls
from profiling.stalls import capture as capture_stalls
from profiling.stalls import read as read_stalls
from profiling.stalls import write as write_stalls
from twill.errors import InputError, TwillError
from twill.machine.calibrate import amortized_period_of, run_period
from twill.machine.model import Machine, pointer_load_wait
from twill.util import atomic_write, sha256
from twill.view import render_html

TOLERANCE = 1e-2
CONFIGS = ({"num_stages": 2}, {"num_stages": 3}, {"num_stages": 4})
SPEED_ROUNDS = 3       # rounds of the speed table (``_speed``): every contender timed once a round, the order rotating


def config_label(cfg: Mapping[str, Any]) -> str:
    """The speed table's name for Triton's kernel launched with ``cfg`` (``triton_num_stages4``)."""
    return "triton_" + "_".join(f"{k}{v}" for k, v in cfg.items())


def is_gluon_dir(d: str | Path) -> bool:
    """A ``twill optimize`` output directory holding a generated Gluon kernel."""
    p = Path(d)
    return (p / "kernel_gluon.py").is_file() and (p / "gluon.json").is_file()


def load_gluon_dir(d: str | Path) -> tuple[dict[str, Any], str]:
    """(gluon.json, kernel_gluon.py) of a Gluon output directory, refused in one line when malformed."""
    p = Path(d)
    try:
        gj = json.loads((p / "gluon.json").read_text())
    except json.JSONDecodeError as e:
        raise InputError("malformed gluon.json", where=f"{p / 'gluon.json'}:{e.lineno}", expected="JSON written by "
                         "twill optimize", found=e.msg) from None
    if not isinstance((gj.get("gluon") or {}).get("kernel"), dict) or not isinstance(gj.get("graph"), dict):
        raise InputError("gluon.json has no kernel or graph", where=str(p / "gluon.json"),
                         expected="a gluon.json written by twill optimize", found=", ".join(sorted(gj)[:8]))
    return gj, (p / "kernel_gluon.py").read_text()


def load_profile(path: str | Path, functions: list[str]) -> dict[str, Any]:
    """A profile JSON (``bench/gluon_profile.py``) of a kernel whose partitions are ``functions``, refused in one line
    otherwise."""
    try:
        prof = json.loads(Path(path).read_text())
    except OSError as e:
        raise InputError("cannot read the profile", where=str(path), found=e.strerror or str(e)) from None
    except json.JSONDecodeError as e:
        raise InputError("malformed profile JSON", where=f"{path}:{e.lineno}", found=e.msg) from None
    if not isinstance((prof.get("combined") or {}).get("regions"), dict) or "partitions" not in prof:
        raise InputError("not a Gluon profile", where=str(path), expected="the JSON of bench/gluon_profile.py "
                         "(partitions, runs, combined regions)", found=str(prof.get("error") or sorted(prof)[:6]))
    theirs = [p.get("function") for p in prof["partitions"]]
    if functions != theirs:
        raise InputError("the profile is of another kernel", where=str(path),
                         expected=f"partitions {functions}", found=f"partitions {theirs}")
    return prof


# ----------------------------------------------------------------------------------------------------------------
# Predicted against measured
# ----------------------------------------------------------------------------------------------------------------
def _summaries(prof: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every partition summary of the profile's runs."""
    return [s for r in prof.get("runs", []) for s in ((r.get("summary") or {}).get("partitions") or {}).values()]


def _run_periods(prof: Mapping[str, Any], part: str) -> list[float]:
    """Partition ``part``'s period in each subset run that timed it (the steady one where the profile has it),
    over that run's overhead (``run_period``)."""
    out = []
    for r in prof.get("runs", []):
        s = ((r.get("summary") or {}).get("partitions") or {}).get(part) or {}
        got = run_period(s, r.get("overhead"))
        if got is not None and not r.get("superseded") and "error" not in r:
            out.append(got)
    return out


def _measured_partition(prof: Mapping[str, Any], index: int, dots: set[str]) -> dict[str, Any]:
    regions = [(n, r) for n, r in prof["combined"]["regions"].items() if int(r["partition"]) == index]
    nodes = {r["node"]: round(float(r["net_cycles_per_iteration"]), 1) for _, r in regions if r.get("node")}
    waits: dict[str, float] = {}
    for n, r in regions:
        if r.get("kind") == "wait":
            what = n.split(":", 2)[-1]
            kind = "wgmma" if any(x in dots for x in what.split("#")[0].split("+")) else "wait:" + what.split("#")[0]
            waits[kind] = round(waits.get(kind, 0.0) + float(r["net_cycles_per_iteration"]), 1)
    gaps = {n.split(":", 2)[-1]: round(float(r["net_cycles_per_iteration"]), 1) for n, r in regions
            if r.get("kind") == "gap"}
    periods = _run_periods(prof, str(index))
    comb = (prof["combined"].get("partitions") or {}).get(str(index)) or {}
    period = statistics.median(periods) if periods else comb.get("period_cycles")
    m = {"period": round(float(period), 1) if period is not None else None,
         "busy": round(sum(nodes.values()), 1), "waits": waits, "runs": len(periods)}
    if gaps:
        m["gaps"] = gaps
    return _chain(m), nodes


def _chain(p: dict[str, Any]) -> dict[str, Any]:
    """``p`` with its waits split: on its own wgmmas (the tensor core), on its own pointer loads (the replay's ``load``:
    a register tile's first reader waiting out the load's latency) and on the rings (the other partitions),
    and what of its period no region covers (``outside``: the lines between the ops' regions, such as spill
    reloads ptxas placed there, barrier arrives and the records themselves; 0 for the replay). A profile of sums
    times those lines too (``gaps``: the arrives, ``gap:arrive:<barrier>``): ``in_gaps`` is their total, taken out of
    ``outside``. Its turns on a shared
    unit (``unit:alu``, ``unit:sfu``) count as neither: the partition computes, more slowly."""
    w = p.get("waits") or {}
    p["wait_tensor_core"] = round(sum(v for k, v in w.items() if k == "wgmma"), 1)
    p["wait_loads"] = round(float(w.get("load", 0.0)), 1)
    p["wait_rings"] = round(sum(v for k, v in w.items()
                                if k not in ("wgmma", "load") and not k.startswith(UNIT_TURN)), 1)
    if p.get("gaps"):
        p["in_gaps"] = round(sum(p["gaps"].values()), 1)
    if p.get("period") is not None and p.get("busy") is not None:
        p["outside"] = round(max(0.0, float(p["period"]) - float(p["busy"]) - p["wait_tensor_core"] - p["wait_loads"]
                                 - p["wait_rings"] - p.get("in_gaps", 0.0)), 1)
    return p


def _predicted_partitions(source: str, gj: Mapping[str, Any], graph: Mapping[str, Any], unit: float,
                          issue: float, smem_rate: float = 0.0,
                          load_wait: float = 1.0) -> tuple[dict[str, dict[str, Any]], float | None, float]:
    """Per partition function: the replay's period, its blocked cycles per steady iteration by kind and its busy
    cycles (the rest); the replayed iteration (None when the replay cannot run the kernel); the tensor core's
    cycles per iteration."""
    costs = model_costs(graph, unit, issue, smem_rate, load_wait)
    parts, iteration = _replayed_partitions(source, gj, costs)
    return parts, iteration, sum(costs.tensor.values())


def _replayed_partitions(source: str, gj: Mapping[str, Any], costs: Costs) -> tuple[dict[str, dict[str, Any]],
                                                                                    float | None]:
    """Per partition function, the replay with ``costs``: its period, its blocked cycles per steady iteration by kind
    and its busy cycles (the rest); the replayed iteration. ({}, None) when the replay cannot run the kernel."""
    try:
        rp = replay(source, dict(gj["gluon"]["kernel"]["signature"]), costs)
    except ProtocolError:
        return {}, None
    out = {}
    for p, name in enumerate(rp.names):
        blocked = {k: round(v, 1) for k, v in rp.steady_blocked(p).items()}
        period = rp.period(p)
        waits = sum(v for k, v in blocked.items() if not k.startswith(UNIT_TURN))   # a shared unit's turn: busy, slower
        out[name] = _chain({"period": round(period, 1) if period is not None else None, "waits": blocked,
                            "busy": round(max(0.0, period - waits), 1) if period is not None else None})
    return out, rp.iteration()


def replayed_iteration(source: str, gj: Mapping[str, Any], machine: Machine) -> float | None:
    """The generated kernel's cycles per iteration replayed with the model's costs, as ``compare`` reports them
    (``replayed_iteration_cycles``; no profile needed); None when the replay cannot run the kernel."""
    p = Profiled("validate", source, gj, {})
    return _predicted_partitions(source, gj, p.model_graph, p.unit, machine.written_cost("wgmma_issue") or 0.0,
                                 machine.rate("smem_bytes"), pointer_load_wait(machine))[1]


def _node_costs(graph: Mapping[str, Any], unit: float, issue: float) -> dict[str, float]:
    """What each node's region should measure under the model: a dot its issue, a TMA load nothing (its issue is
    not modelled), any other op its cycles."""
    c = model_costs(graph, unit, issue)
    return {**{k: round(v, 1) for k, v in c.node.items()}, **{k: round(v, 1) for k, v in c.issue.items()}}


TIED = 0.01      # two partitions' ring waits, as shares of their periods, this close: either is the critical path


def critical(parts: Mapping[str, Mapping[str, Any]], tensor: float, iteration: float | None) -> dict[str, Any]:
    """The loop's critical path: the partition that waits least on the rings (on the other partitions), so its
    own ops and its own wgmmas' latency make the period; with the tensor core's share of the iteration (its
    time is the model's: no record sees it).

    Partitions that wait on the rings within ``TIED`` of the period as little are ``tied`` with it (the replay's two
    consumers of a symmetric schedule: either is the path, and a measurement that finds the other agrees with it).

    >>> critical({"c0": {"period": 100, "busy": 60, "wait_tensor_core": 30, "wait_rings": 10},
    ...           "p": {"period": 100, "busy": 5, "wait_tensor_core": 0, "wait_rings": 95}}, 50, 100)["partition"]
    'c0'
    >>> critical({"c0": {"period": 100, "busy": 60, "wait_tensor_core": 40, "wait_rings": 0},
    ...           "c1": {"period": 100, "busy": 60, "wait_tensor_core": 40, "wait_rings": 0.4}}, 50, 100)["tied"]
    ['c1']
    """
    timed = {n: p for n, p in parts.items() if p.get("period") and p.get("busy") is not None}
    if not timed:
        return {}
    share = {n: float(p["wait_rings"]) / float(p["period"]) for n, p in timed.items()}
    name = min(timed, key=lambda n: (share[n], n))
    p = timed[name]
    return {"partition": name, "tied": sorted(n for n in timed if n != name and share[n] <= share[name] + TIED),
            "period": p["period"], "busy": p["busy"], "wait_tensor_core": p["wait_tensor_core"],
            "wait_rings": p["wait_rings"], "wait_loads": p.get("wait_loads", 0.0), "outside": p.get("outside", 0.0),
            "tensor_core_share": round(tensor / iteration, 3) if iteration else None}


def issue_floor_of(gj: Mapping[str, Any]) -> float:
    """The chosen candidate's issue floor (``twill.gluon_route.issue_floor``) a ``gluon.json`` records, else 0: the
    iteration predicted is no shorter than its busiest consumer takes to issue its ops.

    >>> issue_floor_of({"gluon": {"candidates": [{"subtiles": 2, "iteration_cycles": 2939.0, "issue_floor": 2939.0,
    ...     "ptxas": {"registers": 232, "spill_stores": 0, "spill_loads": 0, "serialized": "", "spills_in_loop": 0}}]}})
    2939.0
    >>> issue_floor_of({"ii": 412})
    0.0
    """
    cands = list((gj.get("gluon") or {}).get("candidates") or [])
    i = chosen_candidate(cands) if cands else None
    return float(cands[i].get("issue_floor") or 0.0) if i is not None else 0.0


def compare(source: str, gj: Mapping[str, Any], prof: Mapping[str, Any], machine: Machine) -> dict[str, Any]:
    """The per-partition comparison of a generated kernel's prediction with its profile (see the module doc)."""
    p = Profiled("validate", source, gj, prof)
    unit, graph = p.unit, p.model_graph
    issue = machine.written_cost("wgmma_issue") or 0.0
    predicted, replayed, tensor = _predicted_partitions(source, gj, graph, unit, issue, machine.rate("smem_bytes"),
                                                        pointer_load_wait(machine))
    node_pred = _node_costs(graph, unit, issue)
    measured_it = p.measured_period()
    amortized_it = p.measured_period(amortized_period_of)
    steady = any(s.get("steady_period_cycles") is not None for s in _summaries(prof))
    schedule_it = max(float(gj["ii"]) * unit, issue_floor_of(gj))
    parts, meas_parts = [], {}
    dots = {n["id"] for n in graph["nodes"] if n["kind"] == "dot"}
    loop_periods = (prof.get("loop_run_all") or prof.get("loop_run") or {}).get("periods") or {}
    for part in prof["partitions"]:
        m, measured_nodes = _measured_partition(prof, int(part["index"]), dots)
        m["loop_period"] = (loop_periods.get(str(part["index"])) or {}).get("cycles_per_iteration")
        pr = predicted.get(part["function"], {})
        nodes = {n: {"predicted_cycles": node_pred.get(n), "measured_cycles": v} for n, v in measured_nodes.items()}
        meas_parts[part["function"]] = m
        parts.append({"index": part["index"], "function": part["function"], "num_warps": part["num_warps"],
                      "predicted": pr, "measured": m, "nodes": nodes,
                      "period_error": _err(m.get("period"), pr.get("period")),
                      "busy_error": _err(m.get("busy"), pr.get("busy"))})
    pred_cp = critical(predicted, tensor, replayed)
    meas_cp = critical(meas_parts, tensor, measured_it)
    missing = list(prof.get("unmeasured") or [])
    explanation = _explain(pred_cp, meas_cp, parts)
    if missing:      # a partition's busy cycles lack the regions no run timed: the measured path is not known
        explanation = (f"incomplete profile ({len(missing)} regions unmeasured, e.g. {', '.join(missing[:3])}): the "
                       f"measured busy cycles are partial. " + explanation.replace("as predicted: ", ""))
    cal = calibrated(source, gj, machine, prof)
    for part in parts:     # the calibrated replay's partition beside the model's
        pc = (cal or {}).get("partitions", {}).get(part["function"], {})
        part.update(calibrated=pc, busy_error_calibrated=_err(part["measured"].get("busy"), pc.get("busy")))
    return {
        "predicted_iteration_cycles": round(schedule_it, 1),
        "replayed_iteration_cycles": round(replayed, 1) if replayed else None,
        "calibrated_iteration_cycles": cal["cycles"] if cal else None,
        "calibrated": cal,
        "measured_iteration_cycles": round(measured_it, 1),
        "measured_period_kind": "steady" if steady else "amortized",
        "measured_amortized_iteration_cycles": round(amortized_it, 1),
        "iteration_error": _err(measured_it, schedule_it),
        "iteration_error_replay": _err(measured_it, replayed),
        "iteration_error_calibrated": _err(measured_it, cal["cycles"]) if cal else None,
        "iteration_error_calibrated_seen": _err(measured_it, cal["seen"]["cycles"]) if cal and cal.get("seen") else None,
        **_loop_run(prof, schedule_it, replayed, cal),
        "partitions": parts,
        "critical_path": {"predicted": pred_cp, "measured": meas_cp,
                          "same": None if missing else bool(pred_cp and meas_cp and _agree(pred_cp, meas_cp)),
                          "complete": not missing, "explanation": explanation},
        "profile_overhead": {"max_of_runs": prof.get("max_overhead_of_runs"),
                             "max_loop_cost_of_runs": prof.get("max_loop_cost_of_runs"),
                             "tiles_recorded": prof.get("tiles_recorded"), "every_record_kept":
                             prof.get("all_complete"), "runs": len([r for r in prof.get("runs", []) if "error" not in r]),
                             "unmeasured": prof.get("unmeasured") or []},
    }


def _loop_run(prof: Mapping[str, Any], schedule_it: float, replayed: float | None,
              cal: Mapping[str, Any] | None) -> dict[str, Any]:
    """The loop run's measurement (``profiling.gluon_profile.loop_runs``: no record inside a loop; partition 0's loop
    alone, which leaves every loop's code as the plain kernel's), its cycles per iteration amortized over the loop (the
    rings' filling included; the slowest where it timed several), beside the prediction; {} for a profile without one.

    >>> _loop_run({"loop_run": {"overhead": 1.004, "every_record_kept": True, "periods": {"0": {
    ...     "cycles_per_iteration": 2100.0}, "1": {"cycles_per_iteration": 1900.0}}}}, 2000.0, None, None)["iteration_error_loop"]
    0.05
    """
    lr = prof.get("loop_run") or {}
    got = [float(v["cycles_per_iteration"]) for v in (lr.get("periods") or {}).values()
           if v.get("cycles_per_iteration") is not None]
    if not got:
        return {}
    it = max(got)
    return {"measured_loop_iteration_cycles": round(it, 1), "loop_run_overhead": lr.get("overhead"),
            "loop_run_every_record_kept": lr.get("every_record_kept"),
            "iteration_error_loop": _err(it, schedule_it), "iteration_error_loop_replay": _err(it, replayed),
            "iteration_error_loop_calibrated": _err(it, cal["cycles"]) if cal else None,
            "iteration_error_loop_calibrated_seen": _err(it, cal["seen"]["cycles"]) if cal and cal.get("seen") else None}


ROOT = Path(__file__).resolve().parents[1]


def calibrated(source: str, gj: Mapping[str, Any], machine: Machine,
               profile: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """The kernel's cycles per iteration replayed with the costs calibrated from profiles (the machine's Gluon
    calibration file, ``codegen.gluon.calibration``), held out where the file saw this kernel
    (``calibration.held_out``: what the calibration predicts of a kernel it never saw); there, ``seen`` too: the
    file as it is, fitted on other runs of this kernel (``runs``), never on the run being validated (``profile``:
    where the file holds it, a committed run validated again offline, fitted again without it): what it predicts
    of a new run of a kernel it has seen. None without a file, or when the replay cannot run the kernel."""
    loaded = load_for(machine)
    if loaded is None:
        return None
    cal, held = held_out(loaded[0], source, ROOT, gj)
    me = Profiled("validate", source, gj, {})
    parts, cycles = _replayed_partitions(source, gj, cal.costs(me, load_wait=pointer_load_wait(machine)))
    if cycles is None:
        return None
    out = {"cycles": round(cycles, 1), "calibration": loaded[1], "held_out": held,
           "fitted_on": [f["label"] for f in cal.fitted_from], "partitions": parts, "seen": None}
    if cal is not loaded[0]:      # the file has runs of this kernel: its prediction of a new run, beside the held-out one
        this = profile_of(loaded[0], profile, ROOT) if profile else None    # a committed run validated again offline
        seen_cal = loaded[0] if this is None else refitted(loaded[0], {this}, ROOT)
        mine = {f["label"] for f in loaded[0].fitted_from} - set(out["fitted_on"]) - {this}
        if seen_cal is not None and mine:
            _, seen = _replayed_partitions(source, gj, seen_cal.costs(me, load_wait=pointer_load_wait(machine)))
            out["seen"] = {"cycles": round(seen, 1), "runs": sorted(mine)} if seen is not None else None
    return out


def _err(measured: float | None, predicted: float | None) -> float | None:
    return round((float(measured) - float(predicted)) / float(predicted), 4) if measured and predicted else None


# the share of a partition's measured period outside every region above which the explanation says so
OUTSIDE_NOTED = 0.2


def _outside_share(c: Mapping[str, Any]) -> float:
    """The share of a partition's measured period outside every op and wait region."""
    return float(c.get("outside") or 0.0) / float(c["period"]) if c.get("period") else 0.0


def _agree(pred: Mapping[str, Any], meas: Mapping[str, Any]) -> bool:
    """Whether the measured critical partition is the predicted one or one tied with it."""
    return meas["partition"] == pred["partition"] or meas["partition"] in pred.get("tied", [])


def _explain(pred: Mapping[str, Any], meas: Mapping[str, Any], parts: list[dict[str, Any]]) -> str:
    """One sentence: the critical partition predicted and measured, what its period is made of, and the ops of
    the measured one furthest over the model."""
    if not pred or not meas:
        return "no critical path: the replay or the profile has no period"

    def parts_of(c: Mapping[str, Any]) -> str:
        tc, out, ld = c.get("tensor_core_share"), float(c.get("outside") or 0.0), float(c.get("wait_loads") or 0.0)
        tied = f", tied with {', '.join(c['tied'])}" if c.get("tied") else ""
        return (f"{c['partition']} (busy {c['busy']:.0f} + its wgmma waits {c['wait_tensor_core']:.0f}"
                + (f" + its loads' latency {ld:.0f}" if ld >= 0.5 else "") + f" + ring waits {c['wait_rings']:.0f}"
                + (f" + outside every region {out:.0f}" if out >= 0.5 else "")
                + f" of {c['period']:.0f} cycles{'' if tc is None else f'; tensor core {tc:.0%} busy'}{tied})")
    row = next((x for x in parts if x["function"] == meas["partition"]), None)
    worst = sorted(((n, v["measured_cycles"] - (v["predicted_cycles"] or 0.0)) for n, v in (row or {}).get("nodes", {}).items()),
                   key=lambda kv: -kv[1])[:3]
    over = ", ".join(f"{n} +{d:.0f}" for n, d in worst if d > 0)
    head = "as predicted: " if _agree(pred, meas) else ""
    share = _outside_share(meas)
    blind = (f"; {share:.0%} of its measured period is outside every op and wait region, so the per-node figures do "
             "not account for it") if share > OUTSIDE_NOTED else ""
    return (f"{head}predicted {parts_of(pred)}; measured {parts_of(meas)}"
            + (f"; its ops furthest over the model: {over}" if over else "") + blind)


# ----------------------------------------------------------------------------------------------------------------
# The command
# ----------------------------------------------------------------------------------------------------------------
def validate_gluon(path: str, machine: Machine, schedule: str, out_dir: str, *, profile_path: str | None = None,
                   say: Callable[[str], None] = print, options: Any = None, stalls: str | None = None) -> dict[str, Any]:
    """Validate the Gluon kernel of ``schedule`` for kernel file ``path``; write ``out_dir``/validation.json and
    gluon.html and return the record. ``profile_path``: read that profile, no GPU used. ``stalls``: "capture"
    samples the kernel's stalls on this GPU (ncu), a path reads a sample made before (``profiling.stalls``)."""
    mod = kernel_module(path)                  # a missing or broken kernel file: one line, before anything else
    gj, source = load_gluon_dir(schedule)
    meta = gj["graph"].get("meta") or {}
    sha = sha256(Path(path).read_bytes())
    if meta.get("source_sha256") and meta["source_sha256"] != sha:
        raise InputError("the Gluon kernel was generated from another kernel source", where=str(schedule),
                         expected=f"source sha256 {sha[:12]} ({path})", found=f"{str(meta['source_sha256'])[:12]}")
    functions = [p.function for p in scopes_of(source, gj.get("warp", {})).partitions]
    jit = str(meta.get("kernel") or gj["graph"].get("name"))
    result: dict[str, Any] = {"schema": "twill.validation/1", "route": "gluon", "kernel": jit, "arch": machine.name,
                              "schedule": str(schedule)}
    if stalls == "capture" and profile_path is not None:
        raise InputError("--stalls without a file samples the kernel on this GPU, and --profile uses none",
                         where="--stalls", expected="--stalls FILE (a stall profile made before) with --profile",
                         found="--stalls alone")
    sampled = read_stalls(stalls) if stalls not in (None, "capture") else None
    if sampled is not None and sampled.get("source_sha256") not in (None, sha256(source.encode())):
        raise InputError("the stall profile was sampled from another generated kernel", where=str(stalls),
                         expected=f"kernel_gluon.py sha256 {sha256(source.encode())[:12]}",
                         found=str(sampled["source_sha256"])[:12])
    if profile_path is not None:
        prof = load_profile(profile_path, functions)
        result.update(profile=str(profile_path), gpu="(offline: the profile's)", problem=prof.get("timed_problem"))
        fl = getattr(mod, "flops", None)
        if callable(fl) and prof.get("timed_problem") and prof.get("plain_ms"):
            result["tflops"] = round(fl(**prof["timed_problem"]) / min(prof["plain_ms"]) * 1e-9, 1)
    else:
        prof = _measure(mod, jit, Path(schedule), path, result, say, options)
        if stalls == "capture":
            say("sampling the kernel's stalls with ncu")
            sampled = capture_stalls(path, schedule, kernel=str(gj["gluon"]["kernel"]["kernel"]))
    result.update(compare(source, gj, prof, machine))
    _note_in_kernel(result)
    result["sass"] = sass_census(source, gj, machine)
    _note_sass(result)
    result["shared_memory"] = shared_traffic(source, gj, machine)
    _note_shared(result)
    if sampled is not None:
        result["stalls"] = attribute_stalls(sampled, source, gj.get("warp", {}))
        result["stalls"]["record"] = str(stalls) if stalls != "capture" else "stalls.json.gz"
        _note_stalls(result)
    _write(out_dir, result, prof, gj, sampled if stalls == "capture" else None)
    return result


def sass_census(source: str, gj: Mapping[str, Any], machine: Machine) -> list[dict[str, int]] | None:
    """Per wgmma loop of the kernel compiled offline (the consumers', in code order), what ptxas put in one trip
    that no region times (``sass.Loop.census``); None when it cannot be compiled or read here."""
    kd = (gj.get("gluon") or {}).get("kernel")
    if not kd:
        return None
    try:
        loops = wgmma_loops(compile_offline(GluonKernel.from_dict(kd, source), machine).asm["cubin"])
    except (TwillError, KeyError):       # not compilable here, or a record without the kernel's launch fields
        return None
    return [lp.census() for lp in loops] or None


def shared_traffic(source: str, gj: Mapping[str, Any], machine: Machine) -> dict[str, Any] | None:
    """The bytes an iteration surely moves through shared memory and the cycles they take at the SM's shared-memory
    rate: the consumers' wgmma operands and stores, read from their loops' SASS (``sass.Loop.shared_bytes``), and
    the tiles copied in (TMA or cp.async: the graph's loads into shared memory). A bound the schedule does not count
    (it prices each wgmma at the tensor core's rate alone) and the replay's port does (``codegen.gluon.replay``, from
    the source: the same bytes); None when the SASS cannot be read here."""
    kd = (gj.get("gluon") or {}).get("kernel")
    consumers = [p for p in scopes_of(source, gj.get("warp", {})).partitions if p.function.startswith("consumer")]
    if not kd or not consumers:
        return None
    try:
        loops = wgmma_loops(compile_offline(GluonKernel.from_dict(kd, source), machine).asm["cubin"])
    except (TwillError, KeyError):
        return None
    if len(loops) != len(consumers):      # a loop per consumer, in code order; else the SASS is not read so
        return None
    per = [lp.shared_bytes(c.num_warps) for lp, c in zip(loops, consumers)]
    copies = sum(int((n.get("attrs") or {}).get("bytes", 0)) for n in gj["graph"]["nodes"]
                 if n["kind"] == "tma_load" or (n["kind"] == "load" and "ttg.local_alloc" in n.get("ops", ())))
    wgmma, stores = sum(b["wgmma_operands"] for b in per), sum(b["stores"] for b in per)
    rate = machine.rate("smem_bytes")
    return {"bytes_per_iteration": wgmma + stores + copies, "wgmma_operands": wgmma, "stores": stores,
            "copies_in": copies, "rate_bytes_per_cycle": rate, "cycles": round((wgmma + stores + copies) / rate, 1),
            "not_counted": "loads from shared memory other than the wgmmas' (threads may read the same bytes)"}


def _note_in_kernel(result: dict[str, Any]) -> None:
    """The whole kernel's cycles an iteration read inside it, against the schedule's and the calibrated prediction;
    the explanation says so."""
    ik = result.get("in_kernel") or {}
    if not ik.get("cycles_per_iteration"):
        return
    ik["error_predicted"] = _err(ik["cycles_per_iteration"], result.get("predicted_iteration_cycles"))
    ik["error_calibrated"] = _err(ik["cycles_per_iteration"], result.get("calibrated_iteration_cycles"))
    result["critical_path"]["explanation"] += (
        f"; read inside the kernel over {ik['calls']} launches, {ik['cycles_per_iteration']:.0f} cycles an iteration "
        f"at {ik['ghz']:.3f} GHz (its whole time: tiles' prologues and epilogues included, no record in the loop)")


def _note_shared(result: dict[str, Any]) -> None:
    """The explanation says where the shared-memory traffic alone takes longer than the schedule's iteration."""
    sm, pred = result.get("shared_memory"), result.get("predicted_iteration_cycles")
    if not sm or not pred or sm["cycles"] <= pred:
        return
    result["critical_path"]["explanation"] += (
        f"; shared memory: {sm['bytes_per_iteration'] / 1024:.0f} KB an iteration (wgmma operands "
        f"{sm['wgmma_operands'] / 1024:.0f}, stores {sm['stores'] / 1024:.0f}, copies in {sm['copies_in'] / 1024:.0f}) "
        f"take at least {sm['cycles']:.0f} cycles at {sm['rate_bytes_per_cycle']:.0f} B a clock, above the "
        f"{pred:.0f} predicted: the schedule prices the wgmmas at the tensor core's rate alone"
        + (f"; the replay, whose shared-memory port carries them, {result['replayed_iteration_cycles']:.0f}"
           if result.get("replayed_iteration_cycles") else ""))


def _note_sass(result: dict[str, Any]) -> None:
    """The explanation of a period mostly outside the regions names what the loops' SASS holds there."""
    cp, loops = result.get("critical_path") or {}, result.get("sass")
    if not loops or _outside_share(cp.get("measured") or {}) <= OUTSIDE_NOTED:
        return
    bars = "/".join(str(c["partition_barriers"]) for c in loops)
    spills = "/".join(str(c["spills"]) for c in loops)
    cp["explanation"] += (f"; per iteration the consumers' loops hold {bars} partition barriers (BAR.SYNC) and "
                          f"{spills} spill instructions, which no region times")


# what a sample may wait on that neither the schedule nor the replay prices (they price ops, wgmmas and barrier waits;
# the replay's shared-memory port, its bandwidth: a store's and a fence's wait on it, not a bank conflict's)
UNPRICED = ("spill", "partition barrier", "atomic", "special register")


def _note_stalls(result: dict[str, Any]) -> None:
    """Each sampled partition's causes in cycles per iteration (its share times the measured period), those the
    model does not price summed; the explanation names where the measured critical partition's time goes."""
    periods = {p["function"]: (p.get("measured") or {}).get("period") for p in result.get("partitions", [])}
    for p in result["stalls"]["partitions"]:
        period = periods.get(p["function"])
        if period:
            p["cycles"] = {c: round(v * float(period), 1) for c, v in p["causes"].items()}
            p["unpriced_cycles"] = round(sum(v for c, v in p["cycles"].items() if c in UNPRICED), 1)
    cp = result.get("critical_path") or {}
    name = (cp.get("measured") or {}).get("partition")
    p = next((x for x in result["stalls"]["partitions"] if x["function"] == name), None)
    if p is None:
        return
    causes = ", ".join(f"{c} {v:.0%}" for c, v in list(p["causes"].items())[:6])
    unpriced = (f"; {p['unpriced_cycles']:.0f} of its {periods[name]:.0f} cycles per iteration wait on what the model "
                f"does not price ({', '.join(c for c in UNPRICED if c in p['causes'])})" if p.get("unpriced_cycles") else "")
    cp["explanation"] = cp.get("explanation", "") + (f"; sampled (ncu), {name}'s time goes to {causes}, "
                                                     f"{p['outside']:.0%} of it on lines outside every region{unpriced}")


def _in_kernel(mod: Any, jit: str, source: str, say: Callable[[str], None]) -> dict[str, Any] | None:
    """The whole kernel's cycles an iteration and its SMs' clock at PROBLEM, read inside the kernel
    (``profiling.cta_clock``: no record in the loop); None for a kernel file without ``loop_iterations`` (the
    iterations a tile) or a kernel the probe cannot read (launched one CTA per tile); ``{"error": ...}`` when the
    probed copy fails on the GPU, so that the rest of the validation stands."""
    iters = getattr(mod, "loop_iterations", None)
    if not callable(iters):
        return None
    try:
        probed(source)
    except InputError:
        return None
    say("reading each CTA's cycles and clock inside the kernel")
    problem = dict(getattr(mod, "PROBLEM", {}) or {})
    inp = mod.make_inputs(**problem, seed=13)

    def call(kernel: Any) -> Any:
        setattr(mod, jit, kernel)
        return mod.launch(inp)
    try:
        out = measure_in_kernel(source, call, float(iters(**problem)))
    except Exception as e:   # noqa: BLE001 - Triton's and CUDA's errors come in many types: one line, kept
        return {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]}
    out.pop("per_call", None)
    return out


def _measure(mod: Any, jit: str, d: Path, path: str, result: dict[str, Any], say: Callable[[str], None],
             options: Any) -> dict[str, Any]:
    """The GPU part: correctness, speed, the profile (written beside validation.json)."""
    import triton

    if not callable(getattr(mod, "reference", None)) or getattr(mod, jit, None) is None:
        raise InputError("kernel file cannot be validated", where=path, expected=f"a reference(inputs) and the JIT "
                         f"function {jit}", found="no reference" if getattr(mod, jit, None) is not None else f"no {jit}")
    torch = require_gpu()
    result.update(gpu=torch.cuda.get_device_name(), triton_version=triton.__version__, torch_version=torch.__version__,
                  problem=dict(getattr(mod, "PROBLEM", {}) or {}))
    triton_fn = getattr(mod, jit)
    with tempfile.TemporaryDirectory(prefix="twill-validate-") as tmp:
        gmod = load_source((d / "kernel_gluon.py").read_text(), tmp, "twill_validate_gluon")
        try:
            setattr(mod, jit, gmod.kernel)
            result["correctness"] = _correctness(mod, say)
            result["speed"] = _speed(mod, torch, gmod.kernel, triton_fn, jit, say)
            result["in_kernel"] = _in_kernel(mod, jit, (d / "kernel_gluon.py").read_text(), say)
        finally:
            setattr(mod, jit, triton_fn)
    meta = {"label": d.name, "kernel_file": path, "jit": jit}
    opts = options or GluonProfileOptions()
    prof = sums_profile(d, path, meta, opts.sums, say) if opts.sums is not None else \
        profile_variant(d, opts, path, meta, say=say)
    setattr(mod, jit, triton_fn)
    if result["speed"].get("unit") == "TFLOP/s":
        result["tflops"] = result["speed"].get("twill")
    return prof


def _correctness(mod: Any, say: Callable[[str], None]) -> dict[str, Any]:
    tol = float(getattr(mod, "VALIDATE_TOL", TOLERANCE))
    checks = output_checks(mod, tol)
    errs = [e for x in checks for e in x["rel_err"]]
    c = {"pass": all(x["pass"] for x in checks), "tolerance": tol, "poison": "NaN (torch.empty filled)",
         "max_rel_err_reference": max(errs, key=lambda e: math.inf if math.isnan(e) else e), "checks": checks}
    failed = next((x for x in checks if not x["pass"]), None)
    why = "" if failed is None else f"; seed {failed['seed']}, problem {failed['problem']}: " + (
        "NaN in an output (poisoned, never written, or computed)" if failed["nan"] else
        f"relative error {max(failed['rel_err']):.2e}" if max(failed["rel_err"]) >= tol else
        "two launches on the same inputs differ (a race)")
    say(f"correctness: {'pass' if c['pass'] else 'FAIL'} (max relative error {c['max_rel_err_reference']:.2e}, "
        f"tolerance {tol:g}{why})")
    return c


def _speed(mod: Any, torch: Any, gluon_fn: Any, triton_fn: Any, jit: str, say: Callable[[str], None]) -> dict[str, Any]:
    """TFLOP/s at PROBLEM: twill's kernel, Triton's default and a few configurations, the library, each the median of
    ``SPEED_ROUNDS`` do_bench medians taken in rounds, every contender once a round, the order rotating (timed one
    after another, run 214's Triton num_stages 4 came out 6 % over twill's GEMM on an H200 where the same rounds had
    them within 3 %, run 215: the clock drifts over a minute); milliseconds (lower is better) for a kernel file with
    no ``flops`` (a memory-bound kernel)."""
    import triton

    inp = mod.make_inputs(**mod.PROBLEM, seed=13)
    fl = mod.flops(**mod.PROBLEM) if callable(getattr(mod, "flops", None)) else None
    sp: dict[str, Any] = {"unit": "TFLOP/s" if fl else "ms", "rounds": SPEED_ROUNDS}

    def running(fn: Any, **cfg: Any) -> Callable[[], Any]:
        def call() -> Any:
            setattr(mod, jit, fn)
            return mod.launch(inp, **cfg)
        return call
    calls = {"twill": running(gluon_fn), "triton_default": running(triton_fn)}
    calls.update({config_label(cfg): running(triton_fn, **cfg) for cfg in getattr(mod, "BENCH_CONFIGS", CONFIGS)})
    lib = _library(mod, inp, torch)
    if lib is not None:
        calls[lib[0]] = lib[1]
    for key in list(calls):          # compiled and warmed; a configuration or library that cannot run is recorded
        try:
            calls[key]()
        except Exception as e:   # noqa: BLE001 - Triton's and the library's errors come in many types
            if key in ("twill", "triton_default"):
                raise
            sp[key] = f"failed: {type(e).__name__}"
            del calls[key]
    times: dict[str, list[float]] = {k: [] for k in calls}
    labels = list(calls)
    for r in range(SPEED_ROUNDS):
        for key in labels[r % len(labels):] + labels[:r % len(labels)]:
            times[key].append(triton.testing.do_bench(calls[key], warmup=25, rep=100, return_mode="median"))
    for key, ts in times.items():
        ms = statistics.median(ts)
        sp[key] = round(fl / ms * 1e-9, 1) if fl else round(ms, 4)
    setattr(mod, jit, gluon_fn)
    best, cfg_best = sp["triton_default"], "default"
    for key in labels:
        if key.startswith("triton_") and key != "triton_default" and (sp[key] > best if fl else sp[key] < best):
            best, cfg_best = sp[key], key
    sp["triton_best"], sp["triton_best_config"] = best, cfg_best
    if lib is not None and lib[0] in times:
        sp["library"] = lib[0]
    say(f"speed ({sp['unit']}, medians of {SPEED_ROUNDS} interleaved rounds): twill {sp['twill']}, Triton default "
        f"{sp['triton_default']}, best {best} ({cfg_best})" + (f", {lib[0]} {sp[lib[0]]}" if lib else ""))
    return sp


def _library(mod: Any, inp: Mapping[str, Any], torch: Any) -> tuple[str, Callable[[], Any]] | None:
    """The library call computing the same: cuDNN SDPA for an attention forward (q, k, v; causal where the
    kernel file says ``CAUSAL = True``), cuBLAS for a GEMM (a, b: the kernel file's own ``library`` where it has
    one, since B's layout is the file's; else ``a @ b.T``). Attention only for [B, H, N, D] operands of 16 bits
    (SDPA's layout and types: not Lightning's or a soft-capped window's [BH, N, D], nor fp8)."""
    q = inp.get("q")
    if {"k", "v"} <= set(inp) and "do" not in inp and q is not None and q.dim() == 4 \
            and q.dtype in (torch.float16, torch.bfloat16):
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel
        causal = bool(getattr(mod, "CAUSAL", False))

        def sdpa() -> Any:
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return F.scaled_dot_product_attention(inp["q"], inp["k"], inp["v"], is_causal=causal)
        return "cudnn", sdpa
    if {"a", "b"} <= set(inp):
        own = getattr(mod, "library", None)
        return "cublas", (lambda: own(inp)) if own is not None else (lambda: torch.matmul(inp["a"], inp["b"].T))
    return None


def _write(out_dir: str, result: dict[str, Any], prof: dict[str, Any], gj: dict[str, Any],
           sampled: dict[str, Any] | None = None) -> None:
    fresh = not os.path.exists(out_dir)
    try:
        os.makedirs(out_dir, exist_ok=True)
        if sampled is not None:
            write_stalls(os.path.join(out_dir, "stalls.json.gz"), sampled)
        if "profile" not in result:
            atomic_write(os.path.join(out_dir, "profile.json"), json.dumps(prof, indent=1) + "\n")
            result["profile"] = os.path.join(out_dir, "profile.json")
        atomic_write(os.path.join(out_dir, "validation.json"), json.dumps(result, indent=1) + "\n")
        atomic_write(os.path.join(out_dir, "gluon.html"), render_html(gj, None, None, result))
    except BaseException:
        if fresh:                              # nothing half-written left behind
            shutil.rmtree(out_dir, ignore_errors=True)
        raise
