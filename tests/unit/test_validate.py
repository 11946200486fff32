"""``twill validate`` without a GPU: bad input refused in one line before any GPU work, no GPU in one
line, no solver imported; the HTML view draws a validation record beside a schedule."""
import subprocess
import sys
from pathlib import Path

import pytest

from twill.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCHED = "bench/results/schedules"


def _has_gpu():
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def one_line(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_schedule_of_another_kernel_is_refused(capsys):
    assert main(["validate", "kernels/fa3.py", "--arch", "h200", "--schedule", f"{SCHED}/gemm-h200"]) == 2
    assert "schedule is of another kernel source" in one_line(capsys)


def test_schedule_for_another_gpu_is_refused(capsys):
    assert main(["validate", "kernels/fa3.py", "--arch", "b200", "--schedule", f"{SCHED}/fa3-h200"]) == 2
    assert "schedule is for another GPU (expected b200, found h200)" in one_line(capsys)


def test_not_a_schedule_directory(tmp_path, capsys):
    assert main(["validate", "kernels/fa3.py", "--arch", "h200", "--schedule", str(tmp_path)]) == 2
    assert "not a twill optimize output directory" in one_line(capsys)


def test_bad_depths(capsys):
    assert main(["validate", "kernels/fa3.py", "--arch", "h200", "--schedule", f"{SCHED}/fa3-h200",
                 "--depths", "0"]) == 2
    assert "bad --depths" in one_line(capsys)


@pytest.mark.skipif(_has_gpu(), reason="checks the no-GPU path")
def test_no_gpu_is_one_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "v"
    assert main(["validate", "kernels/fa3.py", "--arch", "h200", "--schedule", f"{SCHED}/fa3-h200", "-o", str(out)]) == 2
    assert one_line(capsys).startswith("twill validate: error: no GPU") and not out.exists()


def test_validate_imports_no_solver():
    code = ("import sys\nfor m in ('ortools', 'pyscipopt', 'z3'): sys.modules[m] = None\n"
            "import twill.commands.validate, twill.validate, codegen.annotate, codegen.compile, codegen.hints\n"
            "import twill.view, profiling.kernel, profiling.trace, profiling.replay, profiling.critical_path\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr


def test_view_draws_a_validation_record_beside_the_schedule(tmp_path):
    import json
    import shutil

    from twill.commands.view import load_inputs
    from twill.view import render_html

    d = tmp_path / "fa3"
    shutil.copytree(ROOT / SCHED / "fa3-h200", d)
    (d / "validation.json").write_text(json.dumps({"predicted_iteration_cycles": 3624.0,
                                                   "measured_iteration_cycles": 5242.0, "tflops": 512.0,
                                                   "baseline_tflops": 507.5, "speedup": 1.0089}))
    target, sched, graph, extra = load_inputs(d)
    html = render_html(sched, graph, extra.get("profile"), extra.get("validation"))
    assert "Measured against predicted" in html and "5,242" in html and "+44.6% against the prediction" in html


def test_kernel_without_reference_is_one_line(tmp_path, capsys):
    src = (ROOT / "kernels/gemm.py").read_text().replace("def reference(", "def not_the_reference(")
    (tmp_path / "kernels").mkdir()
    k = tmp_path / "kernels" / "gemm.py"
    k.write_text(src)
    assert main(["validate", str(k), "--arch", "h200", "--schedule", f"{SCHED}/gemm-h200"]) == 2
    line = one_line(capsys)
    assert "kernel file has no reference to validate against" in line and "reference(inputs)" in line


# --- the critical path, measured in a committed H200 trace (bench/results/run3: the schedules below) ---
def _schedule(name):
    import json

    from twill.graph.io import graph_from_dict
    from twill.schedule.model import Schedule

    d = json.loads((ROOT / SCHED / f"{name}-h200/schedule.json").read_text())
    return graph_from_dict(d["graph"]), Schedule.from_dict(d), d["normalization"]["scale"]


def _critical(name, ratio=None):
    from codegen.placement import placement
    from profiling.critical_path import measured_critical_path
    from profiling.trace import load_trace
    from twill.machine.model import load_machine

    g, s, scale = _schedule(name)
    events = load_trace(ROOT / f"bench/results/run3/{name}_twill.chrome_trace.gz")
    return measured_critical_path(events, g, s, scale, placement(g, s, load_machine("h200")).stage_map, ratio)


def test_predicted_critical_path_is_the_chain_that_sets_fa3s_length_and_gemms_recurrence():
    from profiling.critical_path import predicted_critical_path

    g, s, _ = _schedule("fa3")
    chain = predicted_critical_path(g, s)
    assert [chain[0].src] + [d.dst for d in chain] == ["dot0_qk", "reduce0_m_ij", "elementwise0_m_ij", "sfu0_p",
                                                       "convert0_p", "dot1_acc"]
    assert sum(d.delay for d in chain) + g.op("dot1_acc").cycles == s.length - 1   # L = 373: the chain, one slot free
    g, s, _ = _schedule("gemm")
    (rec,) = predicted_critical_path(g, s)
    assert (rec.src, rec.dst, rec.distance, rec.delay) == ("dot0_acc", "dot0_acc", 1, s.ii)


def test_fa3_critical_path_measured_against_the_prediction():
    cp = _critical("fa3")
    assert cp["nodes"][0] == "dot0_qk" and cp["nodes"][-1] == "dot1_acc"
    assert cp["predicted_cycles"] == 2603.6                        # (268 - 0) units x 9.7154 cycles
    assert 3000 < cp["measured_cycles"] < 3600 and 0.15 < cp["error"] < 0.40
    assert cp["measured_cycles_uninstrumented"] is None                 # no timing ratio given
    first, *_, last = cp["hops"]
    assert first["waits"]["wait:warp_group_dot_wait:0"] > 300           # the QK wgmma's wait sits on the path
    assert all(h["samples"] == 8192 for h in cp["hops"])                # 256 warps x 32 iterations, all paired
    assert "reduce1_l_ij" in last["between"]                            # one warp group issues everything in turn
    assert cp["measured_path"]["cycles"] >= cp["measured_cycles"]


def test_gemm_critical_path_is_the_accumulator_recurrence_and_matches():
    cp = _critical("gemm", ratio=1.05)
    assert cp["nodes"] == ["dot0_acc", "dot0_acc"] and cp["predicted_cycles"] == 1024.0
    assert abs(cp["error"]) < 0.05 and cp["measured_cycles_uninstrumented"] == round(cp["measured_cycles"] / 1.05, 1)
    assert cp["hops"][0]["between"] == ["tma_load0_a", "tma_load1_b"]   # the next loads are issued in between


def test_iteration_breakdown_adds_up():
    import json

    from profiling.critical_path import iteration_breakdown

    b = iteration_breakdown(json.loads((ROOT / "bench/results/validate/fa3-h200/profile.json").read_text()))
    assert b["iteration"] == 4810.0 and b["records"] == 15 * 50
    assert b["ops"] + b["waits"] + b["records"] + b["other"] == pytest.approx(b["iteration"])
    assert iteration_breakdown({"nodes": {}}) is None


def test_fa3_hints_name_the_dot_placement_triton_36_cannot_compile():
    from codegen.hints import hints
    from twill.machine.model import load_machine

    h200 = load_machine("h200")
    g, s, _ = _schedule("fa3")
    lost = hints(g, s, h200).lost
    assert any("machine optimum (II=210 against 373" in x and "dot0_qk in stage 0, dot1_acc in stage 1" in x
               for x in lost)
    g, s, _ = _schedule("gemm")
    assert hints(g, s, h200).lost == ()


def test_view_draws_correctness_speed_and_the_critical_path(tmp_path):
    import json

    from twill.view import render_html

    sched = json.loads((ROOT / SCHED / "fa3-h200/schedule.json").read_text())
    v = json.loads((ROOT / "bench/results/validate/fa3-h200/validation.json").read_text())
    v["correctness"]["max_rel_err_reference"] = 2.84e-4
    v["critical_path"] = {"nodes": ["dot0_qk", "dot1_acc"], "predicted_cycles": 2603.6, "measured_cycles": 3285.5}
    html = render_html(sched, None, None, v)                         # no profile: the record's own medians
    assert "PASS" in html and "2.8e-04 vs reference" in html
    assert "Triton best" in html and "504 <small>TFLOP/s" in html and "500 <small>TFLOP/s" in html
    assert "+26.2%" in html and html.count('class="meas-row"') == 12
    assert "source hints" in html and "num_stages=2" in html
    v["correctness"]["pass"] = False
    assert "FAIL" in render_html(sched, None, None, v)


def test_a_warp_specialized_schedule_is_launched_as_compiled():
    """The ping-pong schedule was compiled offline at 4 warps per partition with one-deep buffers:
    validate launches it (and the unscheduled kernel it is compared with) that way; any other
    schedule keeps the kernel's own launch."""
    import importlib.util
    import json

    from twill.validate import launch_config

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("fa3_subtiled_k", root / "kernels/fa3_subtiled.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    ws = json.loads((root / "bench/results/schedules/fa3_subtiled-h200-ws/schedule.json").read_text())
    assert launch_config(ws, mod) == {"num_warps": 4, "num_stages": 1, "BLOCK_M": 128, "BLOCK_N": 128}
    n64 = json.loads((root / "bench/results/schedules/fa3_subtiled-h200-ws-n64/schedule.json").read_text())
    assert launch_config(n64, mod) == {"num_warps": 4, "num_stages": 2, "BLOCK_M": 128, "BLOCK_N": 64}
    gemm = json.loads((root / "bench/results/schedules/gemm-h200/schedule.json").read_text())
    assert launch_config(gemm, mod) == {}
