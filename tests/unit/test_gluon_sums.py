"""Region sums (``profiling.gluon_sums``): the source they write into a committed generated kernel, the buffer's
layout as read back, and (slow, offline sm_90 compile) what they cost a consumer's wgmma loop against Proton's
records."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from profiling.gluon import instrument, scopes_of
from profiling.gluon_sums import ARG, HEAD, SumsLayout, read_sums, runs_of, sums_source, with_gaps
from twill.errors import InputError

GLUON = Path(__file__).resolve().parents[2] / "bench/results/gluon"


def _variant(name: str):
    d = GLUON / name
    g = json.loads((d / "gluon.json").read_text())
    src = (d / "kernel_gluon.py").read_text()
    return src, g, scopes_of(src, g["warp"])


def test_sums_source_times_each_instance_and_each_partitions_loop():
    src, _, ks = _variant("fa3")
    names = ["p1:sfu1_alpha_s1", "p2:wait:k_empty", "p0:dot0_qk_s0"]
    text, layout = sums_source(src, ks, names)
    ast.parse(text)
    assert layout.partitions == len(ks.partitions) == 3 and layout.slots == HEAD + 1
    assert layout.regions == {0: ("p0:dot0_qk_s0",), 1: ("p1:sfu1_alpha_s1",), 2: ("p2:wait:k_empty",)}
    clocks = text.count("%clock")
    # two reads a region instance, two a partition's main loop
    assert clocks == 2 * sum(ks.by_name[n].instances for n in names) + 2 * len(ks.partitions)
    for p in ks.partitions:
        assert re.search(rf"^def {p.function}\({ARG}, ", text, re.M), p.function
        assert f"({p.function}, ({ARG}, " in text
    assert re.search(rf"^def twill_kernel\({ARG}, ", text, re.M)
    assert re.search(rf"^RUNTIME = \['{ARG}', ", text, re.M) and f"bound['{ARG}'] = TWILL_PROF" in text
    # each partition stores its trips, its loop and its regions once, after its tile loop
    assert text.count("gl.store(twill_prof + ") == sum(HEAD + len(r) for r in layout.regions.values())
    # the region's sum closes right after the region's last statement, in the loop body
    lines = text.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.strip().startswith("twill_s_p1_sfu1_alpha_s1 = twill_s_p1"))
    assert "sfu1_alpha_s1" in lines[i - 1] and lines[i - 1].endswith("partition 1 (group 1)")
    # nothing else changed: the source with the added lines taken out is the kernel, but for the new parameter
    added = re.compile(r"^\s*(twill_s_|twill_c0 = |twill_l0 = |gl\.store\(twill_prof)")
    kept = [ln.replace(f"{ARG}, ", "").replace(f"'{ARG}', ", "") for ln in lines if not added.match(ln)]
    assert [ln for ln in kept if "TWILL_PROF" not in ln and ln] == [ln for ln in src.splitlines() if ln]


def test_no_region_sums_only_the_loops_and_unknown_regions_say_so():
    src, _, ks = _variant("gemm")
    text, layout = sums_source(src, ks, ())
    assert layout.slots == HEAD and text.count("%clock") == 2 * len(ks.partitions)
    with pytest.raises(InputError, match="no such region"):
        sums_source(src, ks, ["p0:nothing"])


def test_read_sums_over_programs_and_partitions():
    layout = SumsLayout(2, HEAD + 2, {0: ("p0:a", "p0:b"), 1: ("p1:c",)})
    words = [3, 300, 30, 60,   5, 500, 50, 0,      # program 0: partition 0, partition 1
             1, 100, 10, 20,   0, 0, 0, 0,         # program 1: partition 1 ran no trip
             0, 0, 0, 0,       0, 0, 0, 0]         # a program slot no program used
    got = read_sums(words, layout)
    assert got[0] == {"trips": 4, "programs": 2, "loop": 100.0, "p0:a": 10.0, "p0:b": 20.0}
    assert got[1] == {"trips": 5, "programs": 1, "loop": 100.0, "p1:c": 10.0}
    # a sum past 2^31 comes back from the int32 buffer negative: read unsigned
    assert read_sums([1, -(1 << 31), 0, 0], SumsLayout(1, HEAD + 2, {0: ("p0:a", "p0:b")}))[0]["loop"] == 1 << 31
    assert runs_of(("a", "b", "c"), 0) == [("a", "b", "c")] and runs_of(("a", "b", "c"), 1) == [("a",), ("b",), ("c",)]


@pytest.mark.slow
def test_a_sum_costs_a_consumer_loop_fewer_instructions_than_protons_records():
    """Compiled for sm_90 without a GPU: a region's sum adds at most 8 instructions to the FA forward's consumer
    wgmma loop and no spill, its clock reads in uniform registers (S2UR); Proton's two records add 20 or more."""
    pytest.importorskip("triton")
    from codegen.gluon.sass import wgmma_loops
    from profiling.gluon import buffer_for, compile_instrumented

    src, g, ks = _variant("fa3")
    kernel = g["gluon"]["kernel"]
    with_arg = dict(kernel, signature=dict({ARG: "*i32"}, **kernel["signature"]))
    names = ["p1:sfu1_alpha_s1"]

    def loops(k):
        return sorted((len(lp.insts), lp.spills, tuple(t.split()[0] for t in lp.insts if "SR_CLOCKLO" in t))
                      for lp in wgmma_loops(k.asm["cubin"]))

    base = loops(compile_instrumented(sums_source(src, ks, ())[0], with_arg))
    summed = loops(compile_instrumented(sums_source(src, ks, names)[0], with_arg))
    btype, bsize = buffer_for(ks, names, 128, lambda n: 4096, False)
    proton = loops(compile_instrumented(instrument(src, ks, names), kernel, sampling=ks.sampling(names),
                                        buffer_type=btype, buffer_size=bsize))
    plain = loops(compile_instrumented(src, kernel))
    assert len(base) == len(summed) == len(proton) == len(plain) == 2
    added = [s[0] - b[0] for s, b in zip(summed, base)]
    assert sorted(added)[0] == 0 and 0 < sorted(added)[1] <= 8, (base, summed)
    assert all(s[1] == b[1] for s, b in zip(summed, base))
    assert [s[2] for s in summed] == [(), ("S2UR", "S2UR")]      # the clock read into uniform registers
    assert max(p[0] - q[0] for p, q in zip(proton, plain)) >= 20, (plain, proton)


def test_gaps_are_the_loop_statements_no_region_holds():
    """The FA forward's consumers arrive on the K and V rings' empty barriers after their wgmma wait, outside every
    region: each pair is a gap region; the producer's phase arithmetic another; register renames none."""
    src, _, ks = _variant("fa3")
    full = with_gaps(src, ks)
    gaps = {s.name: s for s in full.scopes if s.kind == "gap"}
    assert set(gaps) == {"p0:gap:arrive:v_empty", "p1:gap:arrive:v_empty", "p2:gap:other"}
    lines = src.splitlines()
    for name in ("p0:gap:arrive:v_empty", "p1:gap:arrive:v_empty"):
        (a, b), = gaps[name].spans
        assert [ln.strip().split("(")[0] for ln in lines[a - 1:b]] == ["mbarrier.arrive"] * 2
    held = {ln for s in ks.scopes for a, b in s.spans for ln in range(a, b + 1)}
    assert not held & {ln for s in gaps.values() for a, b in s.spans for ln in range(a, b + 1)}
    text, layout = sums_source(src, full, list(gaps))
    ast.parse(text)
    assert layout.regions[2] == ("p2:gap:other",)


def _fake_runs(ks, overhead: float = 1.02) -> list[dict]:
    """A loop run and one run of every region, as ``sums_run`` returns them: each partition 100 trips over 4
    programs, its loop 2500 cycles an iteration, each region 40 cycles an iteration but the producer's ring wait."""
    from profiling.gluon_sums_run import _summary

    loop = {str(p.index): {"trips": 100, "programs": 4, "loop": 2500.0} for p in ks.partitions}
    figs = {}
    for p in ks.partitions:
        f = {"trips": 100, "programs": 4, "loop": 2550.0}
        f.update({n: (2000.0 if n == "p2:wait:v_empty" else 40.0) for n in ks.names(p.index)})
        figs[str(p.index)] = f
    return [{"label": "sums0", "kind": "sums", "regions": [], "overhead": 1.001, "figures": loop,
             "summary": _summary(loop)},
            {"label": "sums1", "kind": "sums", "regions": list(ks.names()), "overhead": overhead, "figures": figs,
             "summary": _summary(figs)}]


def test_a_sums_profile_is_validated_like_protons(tmp_path):
    """``report`` writes the sums runs as the profile ``twill validate`` reads: per partition the period (the run's
    loop over its overhead), the busy cycles (node regions), the waits and the gaps (the arrives), nothing
    unmeasured, the loop run's figure; validated offline through the CLI."""
    import subprocess
    import sys
    from types import SimpleNamespace

    from profiling.gluon_sums_run import report

    src, _, ks = _variant("fa3")
    full = with_gaps(src, ks)
    v = SimpleNamespace(ks=full, source=src, timed={"B": 4, "H": 32, "N": 4096, "D": 128}, iterations=32)
    prof = report(v, 1.8, 1.81, _fake_runs(full), {"label": "fa3", "kernel_file": "kernels/fa3.py"})
    assert prof["method"] == "sums" and prof["all_complete"] and not prof["unmeasured"]
    assert prof["loop_run"]["periods"]["0"]["cycles_per_iteration"] == 2500.0
    # each consumer's gap holds its two arrives (K and V rings' empty barriers): a calibration prices an arrive so
    assert prof["combined"]["regions"]["p0:gap:arrive:v_empty"]["arrives"] == 2
    assert prof["combined"]["regions"]["p2:gap:other"]["arrives"] == 0
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(prof))
    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, "-m", "twill.cli", "validate", "kernels/fa3.py", "--arch", "h200", "--schedule",
                        str(GLUON / "fa3"), "--profile", str(path), "-o", str(tmp_path / "o")], capture_output=True,
                       text=True, cwd=root, timeout=300)
    assert r.returncode == 0, r.stderr
    val = json.loads((tmp_path / "o" / "validation.json").read_text())
    assert val["measured_iteration_cycles"] == pytest.approx(2550.0 / 1.02, abs=0.1)
    assert val["measured_loop_iteration_cycles"] == 2500.0 and val["loop_run_overhead"] == 1.001
    c0 = val["partitions"][0]["measured"]
    regions = ks.names(0)
    assert c0["busy"] == pytest.approx(40.0 * sum(1 for n in regions if ks.by_name[n].kind == "node"))
    assert c0["gaps"] == {"arrive:v_empty": 40.0} and c0["in_gaps"] == 40.0
    assert c0["outside"] == pytest.approx(2500.0 - 40.0 * (len(regions) + 1), abs=0.2)
    assert val["critical_path"]["complete"] is True
    page = (tmp_path / "o" / "gluon.html").read_text()
    assert "between the regions (arrives" in page and "arrive:v_empty" in r.stdout


def test_auto_measures_again_in_halves_each_run_over_the_limit(monkeypatch):
    """``--sums auto``: from the SASS plan committed beside the FA forward, every run that costs the kernel more than
    x1.05 is measured again in halves, until each run is within it or holds one region; each region's figure comes
    from the one run kept that holds it. The GPU's part (a run's overhead and sums) is given here: a region costs
    1 %, the QK wgmma's 8 %."""
    import profiling.gluon_sums_run as run_mod
    from types import SimpleNamespace

    src, g, ks = _variant("fa3")

    class FakeVariant(SimpleNamespace):
        def __init__(self, directory, work, kernel_file, meta):
            super().__init__(dir=directory, source=src, gjson=g, ks=ks, meta=meta, timed={"N": 4096}, iterations=32,
                             kmod=SimpleNamespace(launch=lambda _: None), big=None, plain=None)

        def use(self, mod):
            pass

    def fake_run(v, names, label, clock="clock"):
        cost = 1.0 + sum(0.08 if n == "p0:dot0_qk_s0" else 0.01 for n in names)
        figs = {str(p.index): dict({"trips": 100, "programs": 4, "loop": 2500.0 * cost},
                                   **{n: 40.0 for n in names if v.ks.by_name[n].partition == p.index})
                for p in v.ks.partitions}
        return {"label": label, "kind": "sums", "regions": list(names), "overhead": round(cost, 4), "figures": figs,
                "summary": run_mod._summary(figs)}

    monkeypatch.setattr(run_mod, "Variant", FakeVariant)
    monkeypatch.setattr(run_mod, "plain_timing", lambda v: (1.0, None))
    monkeypatch.setattr(run_mod, "sums_run", fake_run)
    monkeypatch.setattr("triton.testing.do_bench", lambda *a, **k: 1.0)
    said: list[str] = []
    prof = run_mod.sums_profile(GLUON / "fa3", "kernels/fa3.py", {"label": "fa3", "kernel_file": "kernels/fa3.py"},
                                "auto", said.append)
    names = with_gaps(src, ks).names()
    kept = prof["runs"]
    assert sorted(n for r in kept for n in r["regions"]) == sorted(names)       # each region once
    assert all(r["overhead"] <= 1.05 or len(r["regions"]) == 1 for r in kept)
    assert [r["regions"] for r in kept if r["overhead"] > 1.05] == [["p0:dot0_qk_s0"]]
    assert prof["split_runs"] and all(r["overhead"] > 1.05 and len(r["regions"]) > 1 for r in prof["split_runs"])
    assert set(prof["combined"]["regions"]) == set(names) and not prof["unmeasured"]
    assert any("measured again in halves" in s for s in said)


def test_the_clock_can_be_read_from_clock64():
    """``clock="clock64"``: the same reads, each from ``%clock64`` (its low 32 bits), no ``%clock;`` left."""
    src, _, ks = _variant("fa3")
    names = ["p1:sfu1_alpha_s1", "p0:dot0_qk_s0"]
    a, la = sums_source(src, ks, names)
    b, lb = sums_source(src, ks, names, clock="clock64")
    assert la == lb and b.count("%clock64") == a.count("%clock;") > 0 and "%clock;" not in b
    ast.parse(b)
    with pytest.raises(KeyError):
        sums_source(src, ks, names, clock="globaltimer")
