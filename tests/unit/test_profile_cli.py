"""``twill profile`` without a GPU and its checks: one clear line when there is no GPU, the Proton
buffer-overflow warning from a real H200 trace, the region that breaks an instrumented compile, a
profile of another kernel refused by ``twill optimize``."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from profiling.kernel import overflow_warning
from profiling.replay import replay
from profiling.trace import load_trace
from twill.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _has_gpu():
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


@pytest.mark.skipif(_has_gpu(), reason="checks the no-GPU path")
def test_no_gpu_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "prof"
    rc = main(["profile", "kernels/fa3.py", "--arch", "h200", "-o", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("twill profile: error: no GPU") and not out.exists()


def test_bad_sampling_is_one_line(capsys):
    assert main(["profile", "kernels/fa3.py", "--arch", "h200", "--sampling", "0;4"]) == 2
    assert "bad --sampling" in capsys.readouterr().err


def test_buffer_overflow_warning_names_records_lost_and_the_fix():
    """The default-buffer FA trace from the H200 kept 128 of 960 records per warp."""
    ev = load_trace(ROOT / "tests/fixtures/proton_fa3_h200.chrome_trace.json")
    rep = replay(ev, ["tma_load0_k", "dot0_qk", "sfu0_p", "dot1_acc"], 1.98, expected_iters=32)
    w = overflow_warning(rep["lost_records"], 2, "shared")
    lost = rep["lost_records"]
    assert w and f"{lost['records_expected_per_warp'] - lost['records_kept_per_warp']} of " \
                  f"{lost['records_expected_per_warp']} records per warp lost" in w
    assert "--buffer-size" in w and "--buffer-type global" in w
    full = {"records_expected_per_warp": 640, "records_kept_per_warp": 640, "units_short": 0}
    assert overflow_warning(full, 2, "shared") is None


def test_breaking_region_is_named(monkeypatch):
    """Compile once instrumented; when that fails, each region alone: the one that fails is named."""
    pytest.importorskip("triton")
    import dataclasses

    import profiling.insert as ins
    from twill.errors import CompileError
    from twill.graph.extract import graph_for_file
    from twill.machine.model import load_machine

    h200 = load_machine("h200")
    g, kir = graph_for_file(str(ROOT / "kernels/gemm.py"), h200.target)
    spec = kir.spec
    assert ins.find_breaking_regions(spec, h200.sm, h200.smem_per_cta, g) == []   # the real instrumented GEMM compiles
    real = ins.compile_planned

    def flaky(src, sm, options, plan, **kw):
        regions: list = []
        # fail whenever the dot's region is among those inserted (a stand-in for a pass rejecting it)
        spied = tuple((p, (lambda m, cb=cb: _spy(cb, m, regions)) if p == ins.PRE_PIPELINE_PASS else cb)
                      for p, cb in plan.before)
        k = real(src, sm, options, dataclasses.replace(plan, before=spied), **kw)
        if any(r == "dot0_acc" for r in regions):
            raise CompileError("'proton.record' op pipeliner doesn't know how to predicate this op")
        return k

    def _spy(cb, mod, regions):
        out = cb(mod)     # the records' callback returns the instrumented text; the accumulator flags' None
        regions.extend(n for n in g.ids if isinstance(out, str) and f'"{n}"' in out)
        return out

    monkeypatch.setattr(ins, "compile_planned", flaky)
    broken = ins.find_breaking_regions(spec, h200.sm, h200.smem_per_cta, g)
    assert [b[0] for b in broken] == ["dot0_acc"] and "predicate" in broken[0][1]


def test_optimize_refuses_a_profile_of_another_kernel(tmp_path):
    r = subprocess.run([sys.executable, "-m", "twill.cli", "optimize", "kernels/gemm.py", "--arch", "h200",
                        "--swp-only", "--quiet", "--profile", "bench/results/run3/profile_fa3_default.json",
                        "-o", str(tmp_path / "o")], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "profile is of another kernel" in r.stderr and not (tmp_path / "o").exists()


def test_profile_command_imports_no_solver():
    code = ("import sys\nfor m in ('ortools', 'pyscipopt', 'z3'): sys.modules[m] = None\n"
            "import twill.commands.profile, profiling.kernel, profiling.run, profiling.insert, profiling.replay, "
            "profiling.profile, profiling.clock\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr


def test_optimize_with_a_measured_h200_profile_says_which_costs_were_measured(tmp_path):
    """The FA forward profile measured on the H200 by `twill profile` (bench/results/profiles)."""
    prof = "bench/results/profiles/profile-fa3-h200-global/profile.json"
    r = subprocess.run([sys.executable, "-m", "twill.cli", "optimize", "kernels/fa3.py", "--arch", "h200",
                        "--swp-only", "--profile", prof, "-o", str(tmp_path / "o")],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "costs: 12 measured" in r.stderr and "0 from the machine model" in r.stderr
    sched = json.loads((tmp_path / "o/schedule.json").read_text())
    assert set(sched["cost_sources"]) == {"profile"}


# --- the command end to end on CPU: the GPU run replaced by the committed H200 FA trace -------------

DROP = "Warning (cta{c}, warp{w}): first 832 events are dropped due to insufficient buffer size (128/960)"


def _fake_gpu(monkeypatch, tmp_path, fail=None, broken=()):
    """`twill profile` with the launch faked: the trace is the H200 fixture (whose shared buffer wrapped),
    Proton's per-warp drop notices are in its log, the SM clock is 'measured' at 1.755 GHz."""
    import shutil

    import profiling.insert as ins
    import profiling.kernel as pk
    import profiling.run as run
    from profiling.insert import Region

    real_module = pk.kernel_module

    def module(path):
        mod = real_module(path)
        monkeypatch.setattr(mod, "make_inputs", lambda **problem: problem)
        return mod

    def profile_run(g, launch, bench_launch, kernels, out_dir, **kw):
        os.makedirs(out_dir, exist_ok=True)
        if fail:
            raise fail
        dst = os.path.join(out_dir, "trace.chrome_trace")
        shutil.copy(ROOT / "tests/fixtures/proton_fa3_h200.chrome_trace.json", dst)
        lines = [DROP.format(c=c, w=w) for c in range(4) for w in (0, 4)]
        Path(out_dir, "proton.log").write_text("\n".join(lines) + "\n")
        device = {"gpu": "NVIDIA H200", "sms": 132, "sm_clock_ghz": 1.755, "sm_clock_ghz_reported": 1.98,
                  "sm_clock_source": "measured"}
        waits = tuple(Region(w, (), None) for w in ("wait:wait_barrier:0", "wait:warp_group_dot_wait:0",
                                                         "wait:wait_barrier:1"))
        return run.RunResult(dst, tuple(Region(n, (), n) for n in g.ids) + waits, 8, 4096, 200000, 2.115, 2.572, (0, 4),
                             1.755, "NVIDIA H200", num_stages=3, device=device, proton_dropped=run.proton_drops(lines))

    monkeypatch.setattr(pk, "require_gpu", lambda: None)
    monkeypatch.setattr(pk, "profile_run", profile_run)
    monkeypatch.setattr(pk, "find_breaking_regions", lambda *a, **k: list(broken))
    monkeypatch.setattr(pk, "kernel_module", module)


def test_profile_command_end_to_end_with_the_h200_trace(monkeypatch, tmp_path, capsys):
    pytest.importorskip("triton")
    from profiling.profile import load_profile_for
    from twill.graph.extract import graph_for_file
    from twill.machine.model import load_machine

    _fake_gpu(monkeypatch, tmp_path)
    out = tmp_path / "prof"
    assert main(["profile", "kernels/fa3.py", "--arch", "h200", "-o", str(out)]) == 0
    cap = capsys.readouterr()
    warns = [x for x in cap.err.splitlines() if x.startswith("warning:")]
    assert len(warns) == 1 and "Proton buffer overflow: 832 of 960 records per warp lost" in warns[0]
    assert "--buffer-size 16384 --buffer-type global" in warns[0]
    assert "SM clock 1.755 GHz (measured)" in cap.out and "overhead: instrumented / plain = 1.216" in cap.out
    for name in ("profile.json", "trace.chrome_trace", "trace.perfetto.json", "proton.log"):
        assert f"wrote {out / name}" in cap.out
    assert not (out / "proton").exists()
    prof = json.loads((out / "profile.json").read_text())
    g, _ = graph_for_file(str(ROOT / "kernels/fa3.py"), load_machine("h200").target)
    assert set(prof["nodes"]) == set(g.ids) and prof["unmeasured"] == []
    assert all(s["count"] > 0 and s["median_ns"] == round(s["median_cycles"] / 1.755, 1) for s in prof["nodes"].values())
    assert prof["machine"]["sm_clock_source"] == "measured" and prof["clock"]["ghz"] == 1.755
    assert prof["launch"]["num_warps"] == 8 and prof["launch"]["config"]["BLOCK_N"] == 128
    assert prof["warnings"] == [warns[0][len("warning: "):]]
    assert prof["graph_sha256"] and prof["problem"] == {"B": 1, "H": 4, "N": 4096, "D": 128}
    assert json.loads((out / "trace.perfetto.json").read_text())["traceEvents"]
    assert set(load_profile_for(str(out / "profile.json"), g, "h200")) == set(g.ids)   # optimize can use it


def test_failed_run_leaves_nothing_behind(monkeypatch, tmp_path, capsys):
    pytest.importorskip("triton")
    from twill.errors import DeviceError

    _fake_gpu(monkeypatch, tmp_path, fail=DeviceError("Proton wrote no trace", where="/tmp/x"))
    out = tmp_path / "prof"
    assert main(["profile", "kernels/fa3.py", "--arch", "h200", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()      # the progress line, then the error
    assert err[-1].startswith("twill profile: error:") and "Proton wrote no trace" in err[-1]
    assert sum("error" in x for x in err) == 1 and not out.exists()


def test_instrumentation_compile_failure_names_the_region(monkeypatch, tmp_path, capsys):
    pytest.importorskip("triton")
    _fake_gpu(monkeypatch, tmp_path, broken=[("dot0_qk", "'proton.record' op pipeliner doesn't know how to predicate")])
    out = tmp_path / "prof"
    assert main(["profile", "kernels/fa3.py", "--arch", "h200", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "region dot0_qk" in err[0] and "fails to compile once instrumented" in err[0]
    assert not out.exists()


def test_proton_drop_notices_are_counted_and_kept_out_of_the_output(tmp_path, capfd):
    from profiling.run import captured_output, proton_drops

    log = tmp_path / "proton.log"
    with captured_output(str(log)) as lines:
        for c in range(2):
            for w in (0, 4):
                os.write(2, (DROP.format(c=c, w=w) + "\n").encode())
        os.write(1, b"something else from Proton\n")
    cap = capfd.readouterr()
    assert "dropped" not in cap.err + cap.out and "something else from Proton" in cap.err
    assert len(lines) == 5 and log.read_text().count("dropped") == 4
    lost = proton_drops(lines)
    assert lost == {"units_short": 4, "records_expected_per_warp": 960, "records_kept_per_warp": 128,
                    "reported_by": "proton"}
    assert "832 of 960 records per warp lost" in overflow_warning(lost, 2, "shared")
    assert proton_drops(["nothing to see"]) is None


def test_launch_metadata_comes_from_the_jit_cache():
    """A kernel file's launch returns its output tensor: the compiled kernel is read from the JIT cache."""
    from types import SimpleNamespace

    from profiling.run import compiled_kernel

    k = SimpleNamespace(metadata=SimpleNamespace(num_warps=8))
    fn = SimpleNamespace(device_caches={0: ({"key": k}, {}, None, None, None)})
    assert compiled_kernel((SimpleNamespace(), fn)) is k
    assert compiled_kernel((SimpleNamespace(device_caches={}),)) is None


def test_clock_probe_compiles_offline_with_its_reads_around_the_loop():
    pytest.importorskip("triton")
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from profiling.clock import _clock_probe

    k = triton.compile(ASTSource(_clock_probe, signature={"out_ptr": "*i64", "n": "i32"}, constexprs={}),
                       target=GPUTarget("cuda", 90, 128), options={"num_warps": 4})
    ptx = k.asm["ptx"]
    clocks = [i for i in range(len(ptx)) if ptx.startswith("%clock64", i)]
    assert len(clocks) == 2 and clocks[0] < ptx.index("fma.rn.f32") < clocks[1] < ptx.rindex("%globaltimer")


def test_profile_follows_the_loop_not_the_file(tmp_path):
    """An edit elsewhere in the kernel file keeps a profile valid; a changed loop, or an old profile
    (no graph hash) of another file version, is refused with the command that makes a new one."""
    import dataclasses

    from profiling.profile import load_profile_for, make_profile
    from twill.errors import ProfileError
    from twill.graph.io import graph_from_dict

    d = json.loads((ROOT / "bench/results/schedules/gemm-h200/graph.json").read_text())
    g = graph_from_dict(d.get("graph", d))
    ev = load_trace(ROOT / "tests/fixtures/proton_gemm_h200.chrome_trace.json")
    prof = make_profile(g, replay(ev, list(g.ids), 1.98), arch="h200", gpu="NVIDIA H200", triton_version="3.6.0",
                        kernel_source_sha256="a" * 64, problem={}, launch={}, overhead={})
    p = tmp_path / "p.json"
    p.write_text(json.dumps(prof))
    edited = dataclasses.replace(g, meta=tuple((k, "b" * 64 if k == "source_sha256" else v) for k, v in g.meta))
    assert set(load_profile_for(str(p), edited, "h200")) == {"tma_load0_a", "tma_load1_b", "dot0_acc"}
    op = g.ops[-1]
    other = dataclasses.replace(g, ops=g.ops[:-1] + (dataclasses.replace(op, shape=(64, 256)),))
    with pytest.raises(ProfileError, match="another version of the kernel's loop.*re-run `twill profile"):
        load_profile_for(str(p), other, "h200")
    del prof["graph_sha256"]
    p.write_text(json.dumps(prof))
    with pytest.raises(ProfileError, match="another version of the kernel source"):
        load_profile_for(str(p), edited, "h200")


def test_optimize_refuses_the_run2_profile_of_an_older_fa3_file(tmp_path):
    """bench/results/run2's FA profile predates graph hashes and fa3.py has changed since: its node ids
    are this graph's, but nothing proves the loop is the same, so it is refused, saying how to fix it."""
    r = subprocess.run([sys.executable, "-m", "twill.cli", "optimize", "kernels/fa3.py", "--arch", "h200",
                        "--swp-only", "--quiet", "--profile", "bench/results/run2/profile_fa3_default.json",
                        "-o", str(tmp_path / "o")], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "another version of the kernel source" in r.stderr and "re-run `twill profile fa3.py --arch h200`" in r.stderr
    assert not (tmp_path / "o").exists()
