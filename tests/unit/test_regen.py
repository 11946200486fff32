"""``twill regen``: kernels x archs x configs from an empty database, cache hits, --check drift,
concurrent runs, the Ray executor."""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from twill.cli import main
from twill.store.db import open_db
from twill.store.regen import compare, kernel_configs, plan, regen

ROOT = Path(__file__).resolve().parents[2]
GEMM = ROOT / "kernels" / "gemm.py"
ARCHS = ["h100", "h200", "b200"]

# A small pointer-load GEMM loop with two configs in its TWILL_SPEC.
ACC_CONFIGS = '''import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "K": "i32",
                            "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
              "constexprs": {"BM": 64, "BN": 64, "BK": 32}, "num_warps": 4,
              "configs": [{"name": "bk32"}, {"name": "bk64w8", "constexprs": {"BK": 64}, "num_warps": 8}]}


@triton.jit
def acc_loop(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
'''


def _opts(**kw):
    from twill.pipeline import OptimizeOptions

    return OptimizeOptions(**{"swp_only": True, "time_limit": 20.0, **kw})


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


@pytest.fixture(scope="module")
def kernels_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("kernels")
    shutil.copy(GEMM, d / "gemm.py")
    (d / "acc.py").write_text(ACC_CONFIGS)
    (d / "notes.txt").write_text("not a kernel")
    (d / "helpers.py").write_text("X = 1\n")                  # no @triton.jit: skipped by the folder scan
    return d


@pytest.fixture(scope="module")
def first_run(kernels_dir, tmp_path_factory):
    """Regen of the folder for three archs into an empty database, two worker processes."""
    db = tmp_path_factory.mktemp("db") / "schedules.sqlite"
    lines: list[str] = []
    report = regen([str(kernels_dir)], ARCHS, db, _opts(), jobs=2, progress=lines.append)
    return db, report, lines


def test_plan_expands_kernels_archs_and_configs(kernels_dir):
    name, configs = kernel_configs(kernels_dir / "acc.py")
    assert name == "acc_loop"
    assert configs == [("bk32", {}), ("bk64w8", {"BK": 64, "num_warps": 8})]
    tasks = plan([str(kernels_dir)], ARCHS, _opts())
    assert sorted((Path(t.path).name, t.arch, t.config_name) for t in tasks) == sorted(
        [("acc.py", a, c) for a in ARCHS for c in ("bk32", "bk64w8")] + [("gemm.py", a, "default") for a in ARCHS])
    bk64 = next(t for t in tasks if t.config_name == "bk64w8")
    assert dict(bk64.opts.consts) == {"BK": "64"} and bk64.opts.num_warps == 8


def test_regen_from_empty_database(first_run):
    from twill.graph.io import graph_from_dict
    from twill.schedule.model import Schedule
    from twill.schedule.verify import verify

    db, report, lines = first_run
    assert report.ok, report.diff_text()
    assert report.count("solved") == 9 and report.count("hit") == 0 and report.entries == 9
    assert len(lines) == 9 and all(line.startswith("[") and "solved" in line for line in lines)
    with open_db(db) as store:
        entries = store.entries()
        runs = store.runs()
    assert {(e.kernel_name, e.key.arch, e.config_name) for e in entries} == \
        {("acc_loop", a, c) for a in ARCHS for c in ("bk32", "bk64w8")} | {("_gemm", a, "default") for a in ARCHS}
    for e in entries:
        s = Schedule.from_dict(e.schedule)
        assert s.status == "optimal" and s.ii >= s.lower_bound
        assert verify(graph_from_dict(e.graph), s.get("capacity"), s) == []      # the independent checker
        assert e.annotated_ttgir and "scf.for" in e.annotated_ttgir
        assert e.stats["time_limit"] == 20.0 and "modulo" in e.stats["phases"]
    # The two configs of one kernel compile to different TTGIR, so to different keys.
    acc_h100 = [e for e in entries if e.kernel_name == "acc_loop" and e.key.arch == "h100"]
    assert len({e.key.ttgir_sha for e in acc_h100}) == 2
    # h100 and h200 share the IR (both sm_90) but not the machine model.
    gemm = {e.key.arch: e.key for e in entries if e.kernel_name == "_gemm"}
    assert gemm["h100"].ttgir_sha == gemm["h200"].ttgir_sha and gemm["h100"].machine_sha != gemm["h200"].machine_sha
    assert runs[-1]["summary"] == {"tasks": 9, "hits": 0, "solved": 9, "errors": 0}


def test_rerun_is_all_cache_hits(first_run, kernels_dir):
    db, _, _ = first_run
    with open_db(db) as store:
        before = {e.key.digest: e.created for e in store.entries()}
    lines: list[str] = []
    report = regen([str(kernels_dir)], ARCHS, db, _opts(time_limit=5.0), jobs=2, progress=lines.append)
    assert report.ok and report.count("hit") == 9 and report.count("solved") == 0
    assert all(" hit " in line for line in lines)
    with open_db(db) as store:
        assert {e.key.digest: e.created for e in store.entries()} == before   # nothing rewritten


def test_changed_options_are_a_miss(first_run, kernels_dir, tmp_path):
    db = tmp_path / "copy.sqlite"
    shutil.copy(first_run[0], db)
    report = regen([str(kernels_dir / "gemm.py")], ["b200"], db, _opts(backend="scip"))
    assert report.count("solved") == 1 and report.entries == 10


def test_check_catches_an_injected_change(first_run, tmp_path, capsys):
    db = tmp_path / "copy.sqlite"
    shutil.copy(first_run[0], db)
    with open_db(db) as store:
        target = next(e for e in store.entries() if e.kernel_name == "_gemm" and e.key.arch == "h100")
        sched = dict(target.schedule)
        op = sorted(sched["start"])[0]
        sched["start"] = dict(sched["start"], **{op: sched["start"][op] + 1})
        sched["ii"] = sched["ii"] + 1
        store.put(dataclasses.replace(target, schedule=sched))
    src = str(Path(target.source))
    rc = main(["regen", src, "--arch", "h100", "--arch", "b200", "--swp-only", "--time-limit", "20",
               "--db", str(db), "--check", "--jobs", "1", "-q"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "CHANGED gemm.py::_gemm [h100]" in out
    assert f"II: {sched['ii']} -> {sched['ii'] - 1}" in out
    assert f"start {op}: {sched['start'][op]} -> {sched['start'][op] - 1}" in out
    assert "[b200]" not in out.split("tasks:")[0]             # the untouched arch is not in the diff
    assert "1 same, 1 changed" in out
    with open_db(db) as store:                                 # --check writes nothing
        assert store.get(target.key).schedule == sched


def test_check_passes_when_nothing_changed(first_run, capsys):
    db = first_run[0]
    e = next(e for e in open_db(db).entries() if e.kernel_name == "_gemm")
    rc = main(["regen", e.source, "--arch", "b200", "--swp-only", "--time-limit", "20", "--db", str(db),
               "--check", "-q"])
    assert rc == 0 and "1 tasks: 1 same" in capsys.readouterr().out


def test_compare_verdicts(first_run):
    e = next(e for e in open_db(first_run[0]).entries() if e.kernel_name == "_gemm")
    assert compare(e, e) == ("same", [])
    weaker = dataclasses.replace(e, schedule=dict(e.schedule, status="feasible", gap=0.1))
    verdict, diff = compare(e, weaker)
    assert verdict == "weakened" and diff == ["proof: optimal -> feasible (gap 0.1)"]
    assert compare(weaker, e)[0] == "changed"                  # a stronger proof is a change, not a weakening
    moved = dataclasses.replace(e, key=dataclasses.replace(e.key, triton_version="9.9.9"))
    verdict, diff = compare(e, moved)
    assert verdict == "stale" and diff[0].startswith("key: triton_version")
    assert compare(None, e)[0] == "missing"


def test_two_concurrent_regen_runs_lose_nothing(kernels_dir, tmp_path):
    db = tmp_path / "s.sqlite"
    cmd = [sys.executable, "-m", "twill", "regen", str(kernels_dir / "gemm.py"), "--swp-only", "--time-limit", "20",
           "--jobs", "1", "--db", str(db), "-q"]
    procs = [subprocess.Popen(cmd + ["--arch", a, "--arch", b], env=_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for a, b in (("h100", "h200"), ("b200", "h200"))]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    with open_db(db) as store:
        assert sorted(e.key.arch for e in store.entries()) == ["b200", "h100", "h200"]
        runs = store.runs()
    assert len(runs) == 2 and all(r["finished"] for r in runs)
    assert sum(r["summary"]["solved"] + r["summary"]["hits"] for r in runs) == 4


def test_failed_task_is_reported_and_others_kept(tmp_path):
    good = tmp_path / "gemm.py"
    shutil.copy(GEMM, good)
    bad = tmp_path / "broken.py"
    bad.write_text("import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x):\n"
                   "    for i in range(4):\n        tl.store(x, undefined_name)\n")
    report = regen([str(good), str(bad)], ["h100"], tmp_path / "s.sqlite", _opts())
    assert not report.ok and report.count("solved") == 1 and report.count("error") == 1
    err = next(o for o in report.outcomes if o.verdict == "error")
    assert "broken.py" in err.label and "\n" not in err.detail and err.detail


def test_ray_executor(tmp_path):
    pytest.importorskip("ray", reason="ray not installed (optional extra: pip install 'twill[ray]')")
    from twill.graph.io import graph_to_dict
    from twill.graph.extract import graph_for_file
    from twill.machine.model import load_machine

    g, _ = graph_for_file(str(GEMM), load_machine("h100").target)
    graph = tmp_path / "gemm_graph.json"
    graph.write_text(json.dumps(graph_to_dict(g)))
    ray_db, local_db = tmp_path / "ray.sqlite", tmp_path / "local.sqlite"
    lines: list[str] = []
    report = regen([str(graph)], ["h100", "b200"], ray_db, _opts(), jobs=2, executor="ray", progress=lines.append)
    assert report.ok and report.count("solved") == 2 and len(lines) == 2
    local = regen([str(graph)], ["h100", "b200"], local_db, _opts(), jobs=1)
    assert local.ok
    with open_db(ray_db) as a, open_db(local_db) as b:
        ra, lb = a.entries(), b.entries()
        run_ids = {r["id"] for r in a.runs()}
    # Same keys and the same schedules as local processes; every row written by the driver's run.
    assert {e.key.digest for e in ra} == {e.key.digest for e in lb}
    by_key = {e.key.digest: e for e in lb}
    for e in ra:
        assert compare(by_key[e.key.digest], e)[0] == "same"
        assert e.run_id in run_ids
    import ray

    assert not ray.is_initialized()                            # the instance started here was stopped


def test_regen_solves_with_one_worker_and_a_fixed_seed(monkeypatch, tmp_path):
    """Several CP-SAT workers race and may return another of several optimal schedules: regen asks for
    one worker and seed 0 in every solver call (modulo and joint), and leaves the key unchanged."""
    from twill.pipeline import OptimizeOptions
    from twill.solve.backends.cpsat import CpSatModulo
    from twill.solve.backends.cpsat_joint import CpSatJoint
    from twill.store.keys import options_sha
    from twill.store.regen import REGEN_THREADS

    seen: list[tuple[str, int, int]] = []
    for cls in (CpSatModulo, CpSatJoint):
        real = cls.solve

        def solve(self, q, options, _real=real, _name=cls.__name__):
            seen.append((_name, options.threads, options.seed))
            return _real(self, q, options)
        monkeypatch.setattr(cls, "solve", solve)
    shutil.copy(GEMM, tmp_path / "gemm.py")
    report = regen([str(tmp_path / "gemm.py")], ["h100"], tmp_path / "s.sqlite", OptimizeOptions(time_limit=20.0),
                   jobs=1)
    assert report.ok and report.count("solved") == 1, report.diff_text()
    assert {name for name, _, _ in seen} == {"CpSatModulo", "CpSatJoint"}
    assert REGEN_THREADS == 1 and {(t, s) for _, t, s in seen} == {(1, 0)}
    # The worker count is not part of the key: a database made with other threads stays valid.
    assert options_sha(OptimizeOptions(threads=1)) == options_sha(OptimizeOptions())


def test_check_compares_start_times_only_between_proved_schedules(first_run):
    e = next(e for e in open_db(first_run[0]).entries() if e.kernel_name == "_gemm")
    s = e.schedule
    op = sorted(s["start"])[0]
    moved = dict(s, start=dict(s["start"], **{op: s["start"][op] + 1}))
    # Both optimal: solved to proof with one worker and a fixed seed, so a moved start is a change.
    verdict, diff = compare(e, dataclasses.replace(e, schedule=moved))
    assert verdict == "changed" and diff == [f"start {op}: {s['start'][op]} -> {s['start'][op] + 1}"]
    # Either side stopped by the time limit: its start times are whatever it held then; not drift.
    feasible = dict(s, status="feasible", gap=0.1)
    assert compare(dataclasses.replace(e, schedule=feasible),
                   dataclasses.replace(e, schedule=dict(moved, status="feasible", gap=0.1))) == ("same", [])
    assert compare(e, dataclasses.replace(e, schedule=dict(moved, status="feasible", gap=0.1)))[1] == \
        ["proof: optimal -> feasible (gap 0.1)"]
    # II, length and warp groups count whatever the proof.
    longer = dict(feasible, length=s["length"] + 1, warp={op: 1})
    verdict, diff = compare(dataclasses.replace(e, schedule=dict(feasible, warp={op: 0})),
                            dataclasses.replace(e, schedule=longer))
    assert verdict == "changed"
    assert diff == [f"length: {s['length']} -> {s['length'] + 1}", f"warp {op}: 0 -> 1"]
