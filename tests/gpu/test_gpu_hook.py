"""On the GPU: ``twill.use`` applies a stored schedule when an ordinary ``kernel[grid](...)`` launch
compiles the GEMM, and the result is right.

The database is built here from the committed ``bench/results/schedules/gemm-h200`` (schedule.json and
annotated.ttgir) through ``twill.store.db``: no solver is needed (the GPU machine has none). The key's
TTGIR hash comes from this machine's offline extraction, as ``twill regen`` computes it.

Run on the GPU machine: ``python3 -m pytest -q -m gpu tests/gpu/test_gpu_hook.py``.
"""
from __future__ import annotations

import importlib.util
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]
GEMM = ROOT / "kernels" / "gemm.py"
SCHEDULES = ROOT / "bench" / "results" / "schedules" / "gemm-h200"
ARCH = "h200"


def build_db(path: Path) -> Any:
    """A schedule database holding the committed GEMM schedule for h200; the stored ``Entry``."""
    import triton

    from twill.ir.frontend import read_kernel
    from twill.machine.model import load_machine, machine_sha
    from twill.pipeline import OptimizeOptions
    from twill.store.db import Entry, open_db
    from twill.store.keys import StoreKey, file_sha, ir_sha, options_sha

    schedule = json.loads((SCHEDULES / "schedule.json").read_text())
    graph = schedule.pop("graph")
    kir = read_kernel(str(GEMM), load_machine(ARCH).target)
    pre_ttgir, kernel = kir.text, kir.kernel
    key = StoreKey(kernel_sha=file_sha(GEMM), ttgir_sha=ir_sha(pre_ttgir), arch=ARCH,
                   triton_version=triton.__version__, machine_sha=machine_sha(load_machine(ARCH)), profile_sha="",
                   options_sha=options_sha(OptimizeOptions(swp_only=True)))   # twill optimize --swp-only made it
    entry = Entry(key=key, kernel_name=kernel, config_name="default", config={}, source="kernels/gemm.py",
                  schedule=schedule, graph=graph, annotated_ttgir=(SCHEDULES / "annotated.ttgir").read_text(),
                  stats={"from": str(SCHEDULES.relative_to(ROOT))})
    with open_db(path) as db:
        db.put(entry)
    return entry


def _fresh_gemm_module() -> Any:
    """kernels/gemm.py as a new module: a JIT function no earlier test has compiled in this process."""
    spec = importlib.util.spec_from_file_location("twill_gpu_hook_gemm", GEMM)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_stored_schedule_is_applied_at_launch(tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    import triton
    from triton.tools.tensor_descriptor import TensorDescriptor

    import twill
    from twill.store.hook import ScheduleWarning

    monkeypatch.setattr(triton.knobs.cache, "dir", str(tmp_path / "triton-cache"))   # compile here, not from cache
    monkeypatch.setattr(triton.knobs.runtime, "add_stages_inspection_hook",
                        triton.knobs.runtime.add_stages_inspection_hook)           # restored afterwards
    entry = build_db(tmp_path / "schedules.sqlite")
    gemm = _fresh_gemm_module()
    cfg = gemm.default_config(ARCH)
    bm, bn, bk = cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["BLOCK_K"]
    M = N = K = 1024                                     # multiples of 16, as TWILL_SPEC's divisibility says
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = (torch.randn((N, K), device="cuda", dtype=torch.float32) / K ** 0.5).to(torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)    # poisoned: every tile written

    hook = twill.use(tmp_path / "schedules.sqlite", arch=ARCH)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", ScheduleWarning)         # a match must not warn
            grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), 1, 1)
            a_desc = TensorDescriptor(a, [M, K], [K, 1], [bm, bk])
            b_desc = TensorDescriptor(b, [N, K], [K, 1], [bn, bk])
            c_desc = TensorDescriptor(c, [M, N], [N, 1], [bm, bn])
            gemm._gemm[grid](a_desc, b_desc, c_desc, M, N, K, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                             GROUP_M=cfg["GROUP_M"], num_warps=cfg["num_warps"], num_stages=cfg["num_stages"])
            torch.cuda.synchronize()
    finally:
        hook.uninstall()
    assert [(x.kernel, x.arch, x.digest) for x in hook.applied] == [("_gemm", ARCH, entry.key.digest)]
    ref = torch.matmul(a.float(), b.float().T)
    assert not torch.isnan(c).any()
    rel = ((c.float() - ref).norm() / ref.norm()).item()
    assert rel < 1e-2, rel
