"""Planning the region sums' runs (``profiling.gluon_sums_plan``): the bisection and packing against a spill count
given here, the plan written and read back beside the kernel, and (slow, offline sm_90 compiles) the spills of the
committed FA forward's runs told apart by partition from the SASS's line info."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from profiling.gluon import scopes_of
from profiling.gluon_sums import with_gaps
from profiling.gluon_sums_plan import PLAN, compiled_spills, plan, read_plan, write_plan
from twill.errors import ProfileError

GLUON = Path(__file__).resolve().parents[2] / "bench/results/gluon"


def _counting(extra: dict[str, int], base: dict[int, int], asked: list[tuple[str, ...]]):
    """Spills per partition: the base, plus one for every two regions of the partition, plus ``extra`` for a
    region that spills."""
    def spills(run: tuple[str, ...]) -> dict[int, int]:
        asked.append(run)
        return {p: b + sum(1 + extra.get(n, 0) for n in run if n.startswith(f"p{p}:")) // 2 for p, b in base.items()}
    return spills


def test_a_region_that_spills_is_split_off_and_the_others_packed_within_the_slack():
    names = tuple(f"p0:r{i}" for i in range(8)) + ("p1:a", "p1:b", "p1:c")
    asked: list[tuple[str, ...]] = []
    base, runs = plan({n: int(n[1]) for n in names}, _counting({"p0:r5": 30}, {0: 4, 1: 0}, asked), slack=2)
    assert base == {0: 4, 1: 0}
    assert sorted(n for r in runs for n in r.names) == sorted(names)      # every region, once
    bad = [r for r in runs if not r.fits]
    assert [r.names for r in bad] == [("p0:r5",)] and bad[0].spills == {0: 4 + 15}
    for r in runs:
        if r.fits:
            assert all(s <= base[p] + 2 for p, s in r.spills.items())
            parts = {int(n[1]) for n in r.names}
            assert len([n for n in r.names if n.startswith("p0:")]) <= 5      # (k + 1) // 2 <= 2
            assert parts <= {0, 1}
    # partitions planned in step: one compile answers both partitions' questions
    assert any({n[1] for n in run} == {"0", "1"} for run in asked[1:])
    # the bad region's run is not packed with regions measured clean elsewhere
    assert len(bad[0].names) == 1


def test_regions_that_spill_alone_share_a_run_where_together_they_spill_no_more():
    names = ("p0:a", "p0:b", "p0:c", "p0:d")
    calls: list[tuple[str, ...]] = []

    def spills(run):
        calls.append(run)
        bad = [n for n in run if n in ("p0:c", "p0:d")]
        return {0: (20 if bad else 0) + (len(run) > 3) * 10}     # c and d spill 20 alone or together
    base, runs = plan({n: 0 for n in names}, spills, slack=2)
    assert base == {0: 0}
    assert [(tuple(sorted(r.names)), r.fits) for r in runs] == [(("p0:a", "p0:b"), True), (("p0:c", "p0:d"), False)]


def test_a_region_that_spills_alone_joins_clean_regions_where_beside_them_it_does_not():
    """ptxas allocates the loop anew around each set of clocks: the FA backward's D load spilled 46 alone and 8 (its
    loop run's own) beside a third of its consumer's regions (sm_90, session 84). Such a region joins the clean group
    where the whole stays within the slack; one that spills beside every group keeps a run of its own."""
    names = ("p0:a", "p0:b", "p0:c", "p0:d", "p0:x", "p0:y")

    def spills(run):
        n = len(run)
        if "p0:y" in run:
            return {0: 30}                                  # spills wherever it is
        if "p0:x" in run:
            return {0: 0 if "p0:c" in run and n <= 3 else 30}     # clean beside c only
        return {0: 0 if n <= 2 else 10}
    base, runs = plan({n: 0 for n in names}, spills, slack=2)
    got = sorted((tuple(sorted(r.names)), r.fits) for r in runs)
    assert got == [(("p0:a", "p0:c", "p0:x"), True), (("p0:b", "p0:d"), True), (("p0:y",), False)], got


def test_a_region_that_spills_wherever_it_is_is_timed_in_a_union_with_its_neighbour_and_never_beside_it():
    """The FA backward's consumer-1 wgmma wait: its own clocks cost 23 spill instructions (1 without regions), the
    union of it and the elementwise region around it 7 (session 84). The union replaces it; it is never packed with
    the neighbour it holds (their sums would share a start clock)."""
    names = ("p1:a", "p1:e", "p1:w")
    alts = {"p1:w": ["p1:w&p1:e", "p1:w&p1:a"]}

    def spills(run):
        cost = {"p1:w": 20, "p1:w&p1:e": 0, "p1:w&p1:a": 9}
        return {1: sum(cost.get(n, 0) for n in run)}
    base, runs = plan({n: 1 for n in names}, spills, slack=2, alternatives=alts)
    got = sorted((tuple(sorted(r.names)), r.fits) for r in runs)
    assert got == [(("p1:a", "p1:w&p1:e"), True), (("p1:e",), True)], got


def test_no_two_regions_are_told_apart_by_each_other():
    """Two neighbours that both spill alone: the worse is timed in their union, the other alone (the union's figure
    less it); a region told by difference is never another union's neighbour (session 84's first plan had the FA
    backward's dS and its conversion each as the other's union)."""
    names = ("p1:a", "p1:b")
    alts = {"p1:a": ["p1:a&p1:b"], "p1:b": ["p1:b&p1:a"]}

    def spills(run):
        cost = {"p1:a": 20, "p1:b": 9, "p1:a&p1:b": 0, "p1:b&p1:a": 0}
        return {1: sum(cost.get(n, 0) for n in run)}
    base, runs = plan({n: 1 for n in names}, spills, slack=2, alternatives=alts)
    got = sorted(tuple(sorted(r.names)) for r in runs)
    assert got == [("p1:a&p1:b",), ("p1:b",)], got


def test_a_union_is_summed_over_both_regions_and_its_figure_told_apart_by_difference():
    from profiling.gluon_sums import by_difference, neighbours, sums_source, with_unions

    d = GLUON / "fa_bwd"
    g = json.loads((d / "gluon.json").read_text())
    src = (d / "kernel_gluon.py").read_text()
    ks = with_gaps(src, scopes_of(src, g["warp"]))
    w = "p1:wait:dot2_dpT_s1"
    assert "p1:elementwise0_dsT_s1" in neighbours(ks, w)
    u = f"{w}&p1:elementwise0_dsT_s1"
    ku = with_unions(ks, [u])
    spans = {x for s in (ks.by_name[w], ks.by_name["p1:elementwise0_dsT_s1"]) for x in s.spans}
    assert ku.by_name[u].spans == ((min(a for a, _ in spans), max(b for _, b in spans)),)   # one span, two clocks
    text, layout = sums_source(src, ku, (u,))
    assert text.count("twill_c0 = ") == 1 and layout.regions[1] == (u,)
    figs = {u: {"cycles_per_iteration": 700.0, "kind": "node"}, "p1:elementwise0_dsT_s1": {"cycles_per_iteration": 450.0}}
    out = by_difference(figs, lambda n: (ku.by_name[n].kind, ku.by_name[n].node))
    assert out[w]["cycles_per_iteration"] == 250.0 and out[w]["kind"] == "wait" and u not in out
    assert "p1:elementwise0_dsT_s1" in out[w]["by_difference"]


def test_the_plan_is_read_back_only_for_the_source_and_regions_it_was_made_for(tmp_path):
    names = ("p0:a", "p0:b", "p1:x")
    base, runs = plan({n: int(n[1]) for n in names}, _counting({"p0:b": 9}, {0: 1, 1: 0}, []), slack=2)
    write_plan(tmp_path, "src", base, runs, 2)
    doc = json.loads((tmp_path / PLAN).read_text())
    assert doc["loop_run_spills"] == {"0": 1, "1": 0} and doc["slack"] == 2
    back = read_plan(tmp_path, "src", names)
    assert back == runs
    assert read_plan(tmp_path, "src changed", names) is None
    assert read_plan(tmp_path, "src", names + ("p1:y",)) is None
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.slow
def test_the_fa_forwards_runs_are_planned_from_its_sass():
    """Compiled for sm_90 offline: no region spills in the loop run; every region summed at once spills in one
    consumer's loop (told from the others by its line info), so the plan splits them, every run within the slack."""
    pytest.importorskip("triton")
    d = GLUON / "fa3"
    g = json.loads((d / "gluon.json").read_text())
    src = (d / "kernel_gluon.py").read_text()
    ks = with_gaps(src, scopes_of(src, g["warp"]))
    spills = compiled_spills(src, ks, g["gluon"]["kernel"])
    try:
        base = spills(())
    except ProfileError as e:
        pytest.skip(str(e))
    assert base == {0: 0, 1: 0, 2: 0}
    every = spills(ks.names())
    assert every[2] == 0 and max(every[0], every[1]) > 2, every      # the producer's loop untouched
    base, runs = plan({n: ks.by_name[n].partition for n in ks.names()}, spills)
    assert base == {0: 0, 1: 0, 2: 0} and len(runs) >= 2 and all(r.fits for r in runs)
    assert sorted(n for r in runs for n in r.names) == sorted(ks.names())


def test_validate_takes_a_count_or_auto_for_sums(tmp_path):
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, "-m", "twill.cli", "validate", "kernels/fa3.py", "--arch", "h200", "--schedule",
                        str(GLUON / "fa3"), "--sums", "some", "-o", str(tmp_path / "o")], capture_output=True,
                       text=True, cwd=root, timeout=300)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "--sums >= 0 or auto" in r.stderr and "some" in r.stderr
    assert not (tmp_path / "o").exists()


def test_a_plan_without_the_sass_is_refused(monkeypatch):
    """Where nvdisasm cannot read the compiled kernel (or its loops carry no line info), planning stops with one
    error instead of taking every partition as spilling nothing."""
    import profiling.gluon_sums_plan as plan_mod
    from types import SimpleNamespace

    d = GLUON / "fa3"
    g = json.loads((d / "gluon.json").read_text())
    src = (d / "kernel_gluon.py").read_text()
    ks = with_gaps(src, scopes_of(src, g["warp"]))
    monkeypatch.setattr(plan_mod, "compile_instrumented", lambda *a, **k: SimpleNamespace(asm={"cubin": b""}))
    monkeypatch.setattr(plan_mod, "loop_spills", lambda cubin: ())
    with pytest.raises(ProfileError, match="loops were not read"):
        compiled_spills(src, ks, g["gluon"]["kernel"])(())
    monkeypatch.setattr(plan_mod, "loop_spills", lambda cubin: ((3, (1, 2)),))     # lines outside every partition
    with pytest.raises(ProfileError, match="none in a partition's lines"):
        compiled_spills(src, ks, g["gluon"]["kernel"])(())
