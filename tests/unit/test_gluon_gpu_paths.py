"""``bench/gluon_gpu.py`` records the path each timed launch of a generated kernel takes (its launcher's ``_decide``:
cp.async or the producer's registers, TMA boxes or not), so a kernel a launch sends down its slow path says so in the
run's line (run 120 had needed PC sampling to find vLLM's MoE on its register path). On the CPU: the committed MoE
kernel's launcher decided on arguments as its PROBLEM passes them (the padded token count EM = 4600 not 16-divisible:
cp.async all the same, 176909c) and on a K that is not."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from gluon_gpu import _module, _path, recording  # noqa: E402


def _bound(k: int) -> dict:
    a, b = torch.empty(64, 8, dtype=torch.float16), torch.empty(64, 8, dtype=torch.float16)
    return {"a_ptr": a, "b_ptr": b, "K": k, "stride_am": k, "stride_be": 2048 * k, "stride_bn": k, "EM": 4600,
            "num_valid_tokens": 4096, "N": 2048}


def test_the_timed_launches_path_is_recorded_as_the_launcher_decides_it():
    gmod = _module(ROOT / "bench/results/gluon/vllm_fused_moe/kernel_gluon.py", "paths_vllm_fused_moe")
    gmod.TMA_BOXES = False                      # no descriptors over CPU tensors: the boxes not built
    seen = recording(gmod)
    gmod._decide(_bound(1024))
    gmod._decide(_bound(1000))                  # K not 16-divisible: its masks' comparison along the copied vectors
    assert seen == [{"TWILL_COPY": True, "TWILL_TMA": False, "boxes": False},
                    {"TWILL_COPY": False, "TWILL_TMA": False, "boxes": False}]
    assert [_path(p) for p in seen] == [" (cp.async, no TMA)", " (registers, no TMA)"]
    assert _path({}) == "" and recording(object()) == []       # a kernel whose launcher decides nothing


def test_which_of_a_modules_two_kernels_ran_is_counted():
    # a module's launch runs its one partition or its producer's kernel by the launch (its trip count, or a timing):
    # the figure's record counts which (run 157: chunk_scan's figure had been its one partition's since run 142)
    import types

    from gluon_gpu import counting, ran_most

    mod = types.ModuleType("two_kernels")
    exec("def launch_long(n):\n    return 'long'\n\ndef launch_short(n):\n    return 'short'\n\n"   # noqa: S102
         "def launch(n):\n    return (launch_short if n <= 8 else launch_long)(n)\n", mod.__dict__)
    ran = counting(mod)
    assert [mod.launch(n) for n in (4, 4, 16)] == ["short", "short", "long"]
    assert ran == {"launch_short": 2, "launch_long": 1} and ran_most(ran) == "launch_short"
    ran.clear()
    assert ran_most(ran) is None
    assert counting(types.ModuleType("one_kernel")) == {}             # a module of one kernel: nothing counted


def test_the_record_is_whole_json_after_each_step(tmp_path):
    # a run stopped by its time limit keeps what it timed: the record is replaced whole after each variant (run 187's
    # benchmark, killed after its twenty timings, had written nothing)
    from gluon_gpu import _save

    out = tmp_path / "gpu.json"
    rec = {"env": {}, "variants": [{"label": "a"}], "baselines": [], "complete": False}
    _save(str(out), rec)
    assert json.loads(out.read_text())["variants"] == [{"label": "a"}] and not (tmp_path / "gpu.part").exists()
    rec["variants"].append({"label": "b"})
    rec["complete"] = True
    _save(str(out), rec)
    assert json.loads(out.read_text()) == rec
    _save(None, rec)            # no --out: nothing written


def test_a_folder_that_is_no_variant_is_refused_in_one_line_before_anything_runs(tmp_path):
    # run 188's first call stopped on a traceback at its eighth folder, which its script named wrongly
    import subprocess

    bench = ROOT / "bench" / "gluon_gpu.py"
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "variant.json").write_text("{}")
    r = subprocess.run([sys.executable, str(bench), str(tmp_path / "half"), str(tmp_path / "none"), "--sizes", "0"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [f"gluon_gpu: {tmp_path / 'half'}: not a generated variant (expected a "
                                             "folder with variant.json and kernel_gluon.py); 1 more"]


def test_a_failed_check_says_whether_tritons_own_kernel_fails_it_too():
    # run 188: nan_max_rows failed on its NaN row, whose argmax Triton's own combine leaves to the reduction's order
    from gluon_gpu import _line

    res = {"label": "k", "pass": False, "checks": [{"rel_err": [0.5], "nan": False, "pass": False}], "speed": [],
           "seconds": 1.0}
    assert "Triton's own kernel" not in _line(res)
    assert "; Triton's own kernel fails them too)" in _line(dict(res, triton_pass=False))
    assert "; Triton's own kernel passes them)" in _line(dict(res, triton_pass=True))
