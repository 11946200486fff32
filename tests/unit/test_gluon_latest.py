"""``bench/gluon_latest.py``: each variant's latest GPU figure against Triton's default at the same problem."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("gluon_latest", ROOT / "bench/gluon_latest.py")
gluon_latest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gluon_latest)


def _run(path: Path, variants: list[dict], baselines: list[dict], dirs: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"env": {"command": f"bench/gluon_gpu.py {dirs}"}, "variants": variants,
                                "baselines": baselines}))


def test_latest_run_wins_graph_figures_compared_like_for_like(tmp_path):
    variants = tmp_path / "gluon"
    (variants / "gemm").mkdir(parents=True)
    (variants / "gemm" / "variant.json").write_text("{}")
    (variants / "norm").mkdir()
    (variants / "norm" / "variant.json").write_text("{}")
    p = {"M": 8}
    _run(tmp_path / "runs/run7/out/gpu7.json",
         [{"label": "gemm", "kernel_file": "g.py", "pass": True, "speed": [{"problem": p, "tflops": 100.0}]}],
         [{"kernel_file": "g.py", "rows": [{"problem": p, "triton_default": 200.0}]}], "bench/results/gluon/gemm")
    _run(tmp_path / "runs/run9/out/gpu9.json",
         [{"label": "gemm", "kernel_file": "g.py", "pass": True,
           "speed": [{"problem": p, "tflops": 150.0, "graph_tflops": 180.0}]},
          {"label": "norm", "kernel_file": "n.py", "pass": False, "speed": [{"problem": p, "ms": 1.0}]}],
         [{"kernel_file": "g.py", "rows": [{"problem": p, "triton_default": 200.0, "triton_default_graph": 240.0}]},
          {"kernel_file": "n.py", "rows": [{"problem": p, "triton_default_ms": 2.0}]}],
         "bench/results/gluon/gemm bench/results/gluon/norm")
    _run(tmp_path / "runs/run10/out/gpu10.json",      # a variant of runs/run10/kernels/, not the committed one
         [{"label": "gemm", "kernel_file": "g.py", "pass": True, "speed": [{"problem": p, "tflops": 999.0}]}], [],
         "bench/results/gluon/runs/run10/kernels/gemm")
    rows = gluon_latest.latest(tmp_path / "runs", variants)
    assert [(r["label"], r["run"], round(r["ratio"], 3)) for r in rows] == [("gemm", 9, 0.75)]   # 180 / 240
    assert rows[0]["by_label"]      # a record without a kernel hash: matched by label, the kernel may have changed


def test_a_record_with_a_kernel_hash_counts_for_the_committed_kernel_of_that_hash(tmp_path):
    import hashlib

    variants = tmp_path / "gluon"
    for label, text in (("gemm", "kernel A"), ("norm", "kernel N")):
        (variants / label).mkdir(parents=True)
        (variants / label / "variant.json").write_text("{}")
        (variants / label / "kernel_gluon.py").write_text(text)
    sha = {t: hashlib.sha256(t.encode()).hexdigest() for t in ("kernel A", "kernel B", "kernel N")}
    p = {"M": 8}
    base = [{"kernel_file": "g.py", "rows": [{"problem": p, "triton_default": 200.0}]},
            {"kernel_file": "n.py", "rows": [{"problem": p, "triton_default_ms": 2.0}]}]
    _run(tmp_path / "runs/run140/out/gpu140.json",
         [  # the committed directory timed, but its kernel since replaced: not counted for gemm
          {"label": "gemm", "kernel_file": "g.py", "pass": True, "kernel_sha256": sha["kernel B"],
           "speed": [{"problem": p, "tflops": 50.0}]},
          # a kernel timed from runs/run140/kernels/ and committed since as gemm's: counted for gemm
          {"label": "gemm_after", "kernel_file": "g.py", "pass": True, "kernel_sha256": sha["kernel A"],
           "speed": [{"problem": p, "tflops": 220.0}]},
          {"label": "norm", "kernel_file": "n.py", "pass": True, "kernel_sha256": sha["kernel N"],
           "speed": [{"problem": p, "ms": 1.0}]}], base,
         "bench/results/gluon/gemm bench/results/gluon/runs/run140/kernels/gemm bench/results/gluon/norm")
    rows = {r["label"]: round(r["ratio"], 3) for r in gluon_latest.latest(tmp_path / "runs", variants)}
    assert rows == {"gemm": 1.1, "norm": 2.0}
    assert not any(r["by_label"] for r in gluon_latest.latest(tmp_path / "runs", variants))   # matched by hash


def test_a_figure_is_set_against_tritons_on_the_same_card(tmp_path):
    # the device machine lends an H100 or an H200: an H100 run's figure is compared with Triton's timed on an H100
    # (never the H200's of an earlier run), and said so
    variants = tmp_path / "gluon"
    (variants / "gemm").mkdir(parents=True)
    (variants / "gemm" / "variant.json").write_text("{}")
    p = {"M": 8}
    _run(tmp_path / "runs/run7/out/gpu7.json",
         [{"label": "gemm", "kernel_file": "g.py", "pass": True, "speed": [{"problem": p, "tflops": 100.0}]}],
         [{"kernel_file": "g.py", "rows": [{"problem": p, "triton_default": 200.0}]}], "bench/results/gluon/gemm")
    path = tmp_path / "runs/run8/out/gpu8.json"
    _run(path, [{"label": "gemm", "kernel_file": "g.py", "pass": True, "speed": [{"problem": p, "tflops": 90.0}]}],
         [], "bench/results/gluon/gemm")
    d = json.loads(path.read_text())
    d["env"]["gpu"] = "NVIDIA H100 80GB HBM3"
    path.write_text(json.dumps(d))
    assert gluon_latest.latest(tmp_path / "runs", variants)[0]["run"] == 7      # no H100 baseline: the H200 pair
    d["baselines"] = [{"kernel_file": "g.py", "rows": [{"problem": p, "triton_default": 100.0}]}]
    path.write_text(json.dumps(d))
    rows = gluon_latest.latest(tmp_path / "runs", variants)
    assert [(r["run"], round(r["ratio"], 3), r["card"]) for r in rows] == [(8, 0.9, "H100")]
