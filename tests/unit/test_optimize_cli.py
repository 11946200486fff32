"""``twill optimize`` end to end on the real kernels (CPU only): outputs, the independent checker on
what was written, the installed Triton's realisability constraints honoured by the solvers, bad input."""
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("triton")

from twill.cli import main  # noqa: E402
from twill.graph.io import graph_from_dict  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402
from twill.schedule.model import Schedule  # noqa: E402
from twill.schedule.verify import verify  # noqa: E402

FILES = {"schedule.json", "graph.json", "pre_pipeline.ttgir", "annotated.ttgir", "schedule.html"}


def run(tmp_path, *argv):
    out = tmp_path / "out"
    rc = main(["optimize", *argv, "-o", str(out), "--quiet"])
    return rc, out


def load(out):
    """schedule.json and its Schedule; its embedded graph is the scheduled (normalised) one."""
    d = json.loads((out / "schedule.json").read_text())
    return d, Schedule.from_dict(d)


def test_gemm_swp_only_writes_every_output_and_the_written_schedule_checks(tmp_path, capsys):
    rc, out = run(tmp_path, "kernels/gemm.py", "--arch", "h100", "--swp-only")
    assert rc == 0 and FILES <= {p.name for p in out.iterdir()}
    d, s = load(out)
    g = graph_from_dict(d["graph"])
    assert s.status == "optimal" and s.ii > 0
    assert verify(g, load_machine("h100"), s) == []
    out = capsys.readouterr().out
    assert "II = " in out and "source hints" in out and "num_stages=" in out


def test_fa3_schedule_honours_triton_36_realisability(tmp_path, capsys):
    """Triton 3.6 cannot predicate a dot before the last stage: the emitted schedule keeps every
    compute op no later than each dot's stage; the unconstrained optimum (FA3's pipeline, II = 210)
    is recorded beside it with the reason."""
    import triton

    if not triton.__version__.startswith("3.6"):
        pytest.skip("the last-stage constraint is Triton 3.6's")
    rc, out = run(tmp_path, "kernels/fa3.py", "--arch", "h100", "--swp-only")
    assert rc == 0
    d, s = load(out)
    real = s.get("realisability")
    assert real["unconstrained"]["ii"] == 210 and s.ii > 210
    assert s.get("stage_order") and all(s.start_map[a] // s.ii <= s.start_map[b] // s.ii for a, b in s.get("stage_order"))
    assert "last_stage" in {c["kind"] for c in real["constraints"]}
    from codegen.placement import placement

    g = graph_from_dict(d["graph"])
    assert verify(g, load_machine("h100"), s) == []
    assert not placement(g, s, load_machine("h100")).projected            # codegen places it as solved, nothing given up
    assert f"II={s.ii}" in (out / "annotated.ttgir").read_text().splitlines()[0]


def test_no_realisability_gives_the_machine_optimum(tmp_path):
    rc, out = run(tmp_path, "kernels/fa3.py", "--arch", "h100", "--swp-only", "--no-realisability")
    assert rc == 0
    _, s = load(out)
    assert s.ii == 210 and s.get("realisability") is None


def test_missing_kernel_file_is_one_line_and_writes_nothing(tmp_path, capsys):
    rc, out = run(tmp_path, "kernels/nope.py", "--arch", "h100")
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "nope.py" in err[0] and not out.exists()


@pytest.mark.parametrize("where", ["under-a-file", "proc"])
def test_an_unwritable_output_place_is_one_line_exit_2_before_any_solve(tmp_path, capsys, where):
    if where == "proc":
        if not Path("/proc/self").exists():
            pytest.skip("no /proc")
        out = Path("/proc/twill-no-such-dir/out")
    else:
        (tmp_path / "plain").write_text("a file, not a folder\n")
        out = tmp_path / "plain" / "out"
    rc = main(["optimize", "kernels/gemm.py", "--arch", "h100", "--swp-only", "-o", str(out)])
    cap = capsys.readouterr()
    err = cap.err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "cannot write the outputs" in err[0] and str(out) in err[0], cap.err
    assert "II = " not in cap.out                       # refused before the solve, not after it


def test_a_write_that_fails_after_the_solve_is_one_line(tmp_path, capsys, monkeypatch):
    """The place was writable when the run started and is not when it ends (a full disk, a removed
    folder): still one line, exit 2."""
    import twill.pipeline

    def full(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(twill.pipeline, "atomic_write", full)
    rc, out = run(tmp_path, "kernels/gemm.py", "--arch", "h100", "--swp-only")
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "No space left on device" in err[0], err


# -- what was run, and what was proved ------------------------------------------------------------------
def _args(*argv):
    from twill.cli import build_parser

    return build_parser().parse_args(["optimize", *argv])


def test_default_output_folder_is_named_by_what_was_run():
    from twill.commands.optimize import output_dir

    assert output_dir(_args("kernels/fa3.py", "--arch", "h100")) == Path("twill-out/fa3-h100")
    assert output_dir(_args("kernels/fa3.py", "--arch", "h100", "--swp-only")) == Path("twill-out/fa3-h100-swp")
    assert output_dir(_args("kernels/fa3.py", "--arch", "h100", "--loop", "1")) == Path("twill-out/fa3-h100-loop1")
    assert output_dir(_args("kernels/fa3_subtiled.py", "--arch", "h200", "--num-warps", "4", "--warp-groups", "2",
                            "--no-realisability")) == Path("twill-out/fa3_subtiled-h200-w4-wg2-no-realisability")
    assert output_dir(_args("kernels/gemm.py", "--arch", "h100", "--const", "BLOCK_K=32")) == \
        Path("twill-out/gemm-h100-BLOCK_K32")
    # time limits do not change the problem: the same folder
    assert output_dir(_args("kernels/fa3.py", "--arch", "h100", "--time-limit", "5")) == Path("twill-out/fa3-h100")
    assert output_dir(_args("twill-out/fa3-h100/graph.json", "--arch", "h100")) == Path("twill-out/fa3-h100-graph-h100")


def test_another_runs_folder_is_not_overwritten_without_force(tmp_path, capsys):
    rc, out = run(tmp_path, "kernels/gemm.py", "--arch", "h100", "--swp-only")
    assert rc == 0
    before = (out / "schedule.json").read_text()
    assert json.loads(before)["run"]["flags"]["swp_only"] is True
    rc, _ = run(tmp_path, "kernels/gemm.py", "--arch", "h100", "--swp-only", "--time-limit", "30")   # same problem
    assert rc == 0
    capsys.readouterr()
    rc, _ = run(tmp_path, "kernels/gemm.py", "--arch", "h100")                         # another problem
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "another run" in err[0] and "swp_only" in err[0] and "--force" in err[0]
    assert json.loads((out / "schedule.json").read_text())["run"]["flags"]["swp_only"] is True
    rc, _ = run(tmp_path, "kernels/gemm.py", "--arch", "h100", "--force")
    assert rc == 0 and json.loads((out / "schedule.json").read_text())["run"]["flags"]["swp_only"] is False


def test_a_graph_without_ttgir_says_why_no_annotated_ttgir(tmp_path, capsys):
    rc, out = run(tmp_path, "kernels/gemm.py", "--arch", "h100", "--swp-only")
    capsys.readouterr()
    rc = main(["optimize", str(out / "graph.json"), "--arch", "h100", "--swp-only", "-o", str(tmp_path / "g"),
               "--quiet"])
    lines = capsys.readouterr().out.splitlines()
    assert rc == 0 and not (tmp_path / "g" / "annotated.ttgir").exists()
    why = [x for x in lines if x.startswith("annotated.ttgir not written: ")]
    assert len(why) == 1 and "graph without TTGIR" in why[0]
    d, _ = load(tmp_path / "g")
    assert d["annotated_ttgir"]["written"] is False


@pytest.fixture(scope="module")
def joint_failure(tmp_path_factory):
    """The sub-tiled forward with one compute group for its two sub-tiles, a joint budget of 1 deterministic
    second: the search probes the ceiling I (one iteration laid out op after op), climbs I from the modulo bound,
    refuting each, and stops on the budget; it keeps the ceiling's schedule (with 4 it proves I = 762 optimal
    after 29 values of I)."""
    import subprocess
    import sys
    import time

    root = Path(__file__).resolve().parents[2]
    d = tmp_path_factory.mktemp("joint")
    env = dict(__import__("os").environ, PYTHONPATH=str(root))
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "twill", "optimize", str(root / "kernels/fa3_subtiled.py"), "--arch",
                        "h200", "--num-warps", "4", "--warp-groups", "1", "--no-realisability", "--total-time", "1",
                        "-o", str(d / "out")], capture_output=True, text=True, env=env, cwd=d, timeout=300)
    return r, time.perf_counter() - t0, d / "out"


def test_a_joint_search_out_of_budget_keeps_the_ceiling_schedule_and_says_its_gap(joint_failure):
    """Session 92's ceiling probe: the budget ends the ascent below the answer, and the schedule kept is the
    ceiling's, said feasible with the smallest I not refuted as its bound and the gap's reason (it had said
    'gap: 0.752 ()'), never optimal; the independent checker accepts it."""
    r, _, out = joint_failure
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert lines[0].endswith("status = feasible") and not any(x.rstrip().endswith("status = optimal") for x in lines)
    d, s = load(out)
    summary = d["search_summary"]
    assert d["status"] == "feasible" and d["ii"] == summary["ii_tried"][-1] > d["lower_bound"]
    assert d["lower_bound"] == d["refuted_below"] and abs(d["gap"] - (d["ii"] - d["lower_bound"]) / d["ii"]) < 1e-9
    gap = next(x for x in lines if x.startswith("gap: "))
    assert gap.endswith(f"({summary['proof']})") and "I >= " in gap, gap
    verdict = [x for x in lines if x.startswith("result: ")]
    assert len(verdict) == 1 and verdict[0].endswith(f": feasible, not proved optimal (lower bound {d['lower_bound']})")
    assert s.warp and verify(graph_from_dict(d["graph"]), load_machine("h200"), s) == []


def test_the_joint_search_keeps_its_budget_and_reports_in_a_few_lines(joint_failure):
    """The budget is deterministic seconds: the search spends it (the last call cut to what is left), says the
    budget ended it, and stays far inside the wall-clock safety cap."""
    r, took, out = joint_failure
    d, _ = load(out)
    b = d["budget"]
    assert b["limit"] == 1 and b["stopped_by"] == "budget" and 1 <= b["spent"] < 1.5 and b["reproducible"], b
    assert b["wall_seconds"] < b["wall_cap_seconds"]
    assert "(1 of 1 deterministic seconds, ended by the budget)" in r.stdout.splitlines()[1]
    ascended = [e["ii"] for e in d["search"] if e.get("phase") == "ascend"]
    progress = [x for x in r.stderr.splitlines() if x.split("] ", 1)[-1].startswith("joint search: I=")]
    assert len(ascended) > 10 and ascended == sorted(ascended) and len(progress) <= 3, r.stderr[-3000:]


def test_a_written_graph_is_solved_again_as_it_was(tmp_path, capsys):
    """graph.json records the joint-problem flags it was solved with; fed back without them, it is
    solved the same way (not with one compute group for two sub-tiles, a search of minutes)."""
    rc, out = run(tmp_path, "kernels/fa3_subtiled.py", "--arch", "h200", "--num-warps", "4", "--warp-groups", "2",
                  "--no-realisability", "--total-time", "60")
    assert rc == 0
    d1, s1 = load(out)
    rc = main(["optimize", str(out / "graph.json"), "--arch", "h200", "-o", str(tmp_path / "again")])
    cap = capsys.readouterr()
    d2, s2 = load(tmp_path / "again")
    assert rc == 0 and "from the graph file: --warp-groups 2" in cap.err
    assert d2["warp_groups"]["compute"] == 2 and (s2.ii, s2.length) == (s1.ii, s1.length) and s2.status == "optimal"


def test_schedule_text_labels_its_times_as_units(tmp_path, capsys):
    rc, _ = run(tmp_path, "kernels/fa3.py", "--arch", "h100", "--swp-only")
    out = capsys.readouterr().out
    assert rc == 0 and "start cycles" not in out and "start times (units): " in out
    assert "\ntime (units)    part" in out and "slot (units mod " in out
    assert not any(line.startswith("cycle ") for line in out.splitlines())


def test_the_joint_search_progress_is_one_live_line_on_a_terminal(capsys):
    from twill.commands.optimize import Progress

    live = Progress(quiet=False, live=True)
    live("graph: 12 ops, 18 edges")
    for i in range(300):
        live(f"joint search: I={373 + i} L=373 (I values tried: {i + 1}; 0.1 s of the 600 s budget, --total-time)")
    live("joint search: optimal at I=672")
    err = capsys.readouterr().err
    assert err.count("\n") == 3 and err.count("\r") == 300          # one line rewritten, ended before the next
    piped = Progress(quiet=False, live=False)
    for i in range(300):
        piped(f"joint search: I={373 + i} L=373")
    assert capsys.readouterr().err.count("\n") == 1                   # within 10 s: the first only


def test_progress_limits_the_search_ticks_but_prints_its_explanations(capsys):
    from twill.commands.optimize import Progress
    p = Progress(quiet=False, live=False)
    for msg in ("joint search: I=286 L=191 (I values tried: 1; 0.0 s of the 600 s budget, --total-time)",
                "joint search: I=287 L=191 (0.1s)",
                "joint search: I=311 above the modulo II=62: with 1 compute warp group(s) of 4 warps, blocking waits "
                "serialise issue"):
        p(msg)
    err = capsys.readouterr().err
    assert "I=286" in err and "I=287" not in err and "above the modulo II=62" in err, err


NO_LOOP = '''import triton
import triton.language as tl


@triton.jit
def scale(x, n: tl.constexpr):
    o = tl.arange(0, n)
    tl.store(x + o, tl.load(x + o) * 2)
'''


def test_a_kernel_with_no_loop_is_one_line_naming_the_file_and_the_kernel(tmp_path, capsys):
    src = tmp_path / "elementwise_scale.py"
    src.write_text(NO_LOOP)
    for cmd in (["optimize", str(src), "--arch", "h100", "-o", str(tmp_path / "out")], ["graph", str(src), "--arch", "h100"]):
        rc = main(cmd + ["--kernel", "scale", "--arg", "x=*fp32", "--const", "n=16"])
        err = capsys.readouterr().err.strip().splitlines()
        assert rc == 2 and len(err) == 1, err
        assert "elementwise_scale.py, kernel scale: no loop in kernel" in err[0], err
    assert not (tmp_path / "out").exists()


STATIC_LOOP = """import triton
import triton.language as tl

TWILL_SPEC = {"kernel": "k", "signature": {"x": "*fp32", "y": "*fp32"}, "constexprs": {"K": 1024, "B": 32},
              "num_warps": 4, "num_stages": 1}


@triton.jit
def k(x, y, K: tl.constexpr, B: tl.constexpr):
    acc = tl.zeros([B], tl.float32)
    for k0 in tl.static_range(0, K, B):
        acc += tl.load(x + k0 + tl.arange(0, B))
    tl.store(y + tl.arange(0, B), acc)
"""


def test_a_static_range_main_loop_is_named_as_one_and_told_to_be_a_tl_range(tmp_path, capsys):
    # Liger's mHC norm: its K loop a tl.static_range of 32 trips; the message had advised --const, which no
    # specialisation answers
    src = tmp_path / "static_k.py"
    src.write_text(STATIC_LOOP)
    rc = main(["optimize", str(src), "--arch", "h100", "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1, err
    assert ("though the source has `for` at line 11: a tl.static_range, which Triton unrolls into straight code at "
            "every specialisation; written as tl.range it stays a loop twill can schedule") in err[0], err
    assert "--const" not in err[0] and not (tmp_path / "out").exists()


def test_a_joint_search_refuting_every_overlapping_I_reads_infeasible_in_its_status_too():
    """Every I up to the ceiling (past it the iterations no longer overlap) refuted, no budget ended it: the record's
    status and the status line say infeasible (vLLM's recovered-token sampler had read "joint search: timeout" beside
    "infeasible: 17 of 17 I values refuted")."""
    from types import SimpleNamespace

    from twill.pipeline import joint_failure
    from twill.schedule.text import status_text
    rec = {"search": [{"ii": [708, 724], "result": "unsat"}], "search_summary": {"ii_ceiling": 724}, "budget": {}}
    joint = SimpleNamespace(status="timeout", solve_seconds=0.23, get=rec.get)
    failed = joint_failure(joint, 600.0)
    assert failed["status"] == "infeasible" and "(infeasible: 17 of 17 I values refuted" in failed["summary"]
    modulo = SimpleNamespace(status="optimal", get={"joint": failed}.get)
    assert status_text(modulo).endswith("(joint search: infeasible)")


def test_a_guarded_body_is_said_to_be_outside_the_proof(tmp_path, capsys):
    """Session 93's sweep: SeerAttention's block-sparse forward runs its whole iteration under ``if mask_val:`` (a
    block mask loaded per iteration); that ``if`` is one node, its loads and dots run as written within it, and the
    verdict says so beside "optimal (proved)" (it had said only that); a loop with no such ``if`` says nothing more."""
    rc, out = run(tmp_path, "tests/corpus/seer_block_sparse_attn_fwd.py", "--arch", "h100", "--swp-only")
    verdict = [x for x in capsys.readouterr().out.splitlines() if x.startswith("result: ")]
    assert rc == 0 and len(verdict) == 1 and "optimal (proved), over the graph where " in verdict[0], verdict
    d, _ = load(out)
    guarded = [n["id"] for n in d["graph"]["nodes"] if "scf.if" in n["ops"]]
    assert len(guarded) == 1 and f"{guarded[0]} (an if holding dots and loads, line " in verdict[0], verdict
    assert verdict[0].endswith("is one node whose ops run as written, not pipelined within")
    rc, _ = run(tmp_path / "gemm", "kernels/gemm.py", "--arch", "h100", "--swp-only")
    plain = [x for x in capsys.readouterr().out.splitlines() if x.startswith("result: ")]
    assert rc == 0 and plain[0].endswith("optimal (proved)"), plain


def test_the_chosen_kernels_note_gives_the_spilled_bytes_it_does_not_count():
    """A kernel the route calls ptxas-clean may still spill (outside its wgmma loop, or a few hundred bytes in a loop
    without wgmma: SGLang's int4 decode, 776 bytes a thread at one warp): the note says the bytes (session 93's sweep:
    it had said clean alone)."""
    from types import SimpleNamespace

    from codegen.gluon.generate import PtxasReport
    from twill.pipeline import _which

    spilled = PtxasReport(registers=255, spill_stores=776, spill_loads=776, serialized="", spills_in_loop=0)
    none = PtxasReport(registers=128, spill_stores=0, spill_loads=0, serialized="", spills_in_loop=0)
    assert spilled.clean and _which(SimpleNamespace(clean=True, ptxas=none)) == "the best ptxas-clean one"
    said = _which(SimpleNamespace(clean=True, ptxas=spilled))
    assert said.startswith("the best ptxas-clean one (its 776 bytes a thread spilled not counted"), said
    in_loop = PtxasReport(registers=255, spill_stores=3588, spill_loads=3676, serialized="", spills_in_loop=963)
    assert _which(SimpleNamespace(clean=False, ptxas=in_loop)).startswith("the one ptxas allocated best")


def test_a_failed_joint_search_names_the_I_values_it_searched_not_their_span():
    """Session 93's sweep (FastDeploy's WINT2 MoE GEMM): the ascent refuted 483..665, the ceiling's probe at 3610
    timed out; the line had read "no warp assignment found for I = 483..3610", a range it had not searched."""
    from types import SimpleNamespace

    from twill.pipeline import intervals, joint_failure
    rec = {"search": [{"ii": [483, 600], "result": "unsat", "phase": "bound"},
                      *({"ii": i, "result": "unsat", "phase": "ascend"} for i in range(601, 666)),
                      {"ii": 3610, "result": "timeout", "phase": "probe"}],
           "search_summary": {"ii_ceiling": 3610}, "budget": {"stopped_by": "budget"}}
    failed = joint_failure(SimpleNamespace(status="timeout", solve_seconds=300.0, get=rec.get), 60.0)
    assert failed["summary"].startswith("no warp assignment found for I = 483..665 and 3610 (timeout: 183 refuted, "
                                        "1 left open (3610: "), failed["summary"]
    assert failed["ii_searched"] == [483, 3610]
    assert intervals({7}) == "7" and intervals({1, 2, 4, 6, 7}) == "1..2, 4 and 6..7"


def test_the_verdict_says_the_gluon_kernel_runs_its_own_schedule(tmp_path, capsys):
    """Session 93's sweep: the verdict named the top-level joint schedule (warp groups) while the kernel written was
    the Gluon route's (a norm's backward: one partition); it says which schedule kernel_gluon.py runs."""
    rc, out = run(tmp_path, "kernels/gemm.py", "--arch", "h100", "--total-time", "20")
    verdict = [x for x in capsys.readouterr().out.splitlines() if x.startswith("result: ")]
    g = json.loads((out / "gluon.json").read_text())
    assert rc == 0 and (out / "kernel_gluon.py").is_file() and len(verdict) == 1
    # its status scoped as the route proves it: for that row split under that register limit, not over all kernels
    assert re.search(rf"; kernel_gluon\.py runs the Gluon route's own schedule \({g['row_split']} row sub-tile\(s\), "
                     rf"I = {g['ii']} L = {g['length']}: {g['status']} for that split under \d+ registers a thread, "
                     r"gluon\.json\)$", verdict[0]), verdict
