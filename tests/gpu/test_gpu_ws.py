"""On the GPU: the committed warp-specialized FA forward schedule (FA3's ping-pong from the joint
search, bench/results/schedules/fa3_subtiled-h200-ws) compiles at an ordinary launch into one
``ttg.warp_specialize`` with the partitions the annotation names, and its output is right (NaN-poisoned
output buffer, against torch SDPA). Speed is bench/gpu_ws.py's business, not this test's.

Run on the GPU machine: ``python3 -m pytest -q -m gpu tests/gpu/test_gpu_ws.py``.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.gpu

torch = pytest.importorskip("torch")
if not torch.cuda.is_available() or torch.cuda.get_device_capability()[0] != 9:
    pytest.skip("needs an sm_90 GPU (the schedule is for the H200)", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
SCHEDULE = ROOT / "bench" / "results" / "schedules" / "fa3_subtiled-h200-ws"


@pytest.mark.parametrize("size", [{"B": 1, "H": 2, "N": 512, "D": 128}, {"B": 2, "H": 4, "N": 2048, "D": 128}])
def test_ping_pong_schedule_runs_warp_specialized_and_right(size):
    sys.path.insert(0, str(ROOT))
    from codegen.compile import scheduled
    from kernels import fa3_subtiled as fs

    sched = json.loads((SCHEDULE / "schedule.json").read_text())
    ws = sched["warp_specialization"]
    assert ws["warp_specialized"] and ws["checked"]
    meta = sched["graph"]["meta"]
    launch = {"num_warps": meta["num_warps"], "num_stages": ws["num_stages"],
              "BLOCK_M": meta["constexprs"]["BLOCK_M"], "BLOCK_N": meta["constexprs"]["BLOCK_N"]}
    annotated = (SCHEDULE / "annotated.ttgir").read_text()
    inp = fs.make_inputs(**size, seed=5)
    ref = torch.nn.functional.scaled_dot_product_attention(inp["q"], inp["k"], inp["v"], scale=inp["sm_scale"])
    junk = torch.full((64 << 20,), float("nan"), device="cuda")   # the freed block the output will reuse
    del junk
    with scheduled(annotated, fs._attn_fwd_subtiled):
        out = fs.launch(inp, **launch)
        torch.cuda.synchronize()
        ttgir = ""
        for cache in (getattr(fs._attn_fwd_subtiled, "device_caches", None) or {}).values():
            kernels = cache[0] if isinstance(cache, tuple) else cache
            ttgir = next((k.asm.get("ttgir", "") for k in kernels.values() if hasattr(k, "asm")), ttgir)
    assert ttgir.count("ttg.warp_specialize(") == 1
    warps = [int(w) for w in re.findall(r"partition\d+\(.*?num_warps\((\d+)\)", ttgir, re.S)]
    assert len(warps) == len(ws["partitions"]["roles"]) - 1, warps
    assert not torch.isnan(out.float()).any()
    err = ((out.float() - ref.float()).norm() / ref.float().norm()).item()
    assert err < 1e-2, err
