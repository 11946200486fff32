"""An atomic before the loop runs once in the generated kernel: where another partition would need its result (a tile
taken from a ticket counter), the warp-specialized kernel is refused and the route writes the one partition loading
its own tiles; each partition had run the atomic itself, taking a ticket of its own (the producer loading one tile
while the consumer computed another)."""
from __future__ import annotations

import pytest

TICKET_GEMM = '''import triton
import triton.language as tl

TWILL_SPEC = {"kernel": "ticket_gemm", "signature": {"a": "*fp16", "b": "*fp16", "c": "*fp16", "counter": "*i32",
              "M": "i32", "N": "i32", "K": "i32"}, "constexprs": {"BM": 128, "BN": 128, "BK": 64},
              "num_warps": 8, "num_stages": 3, "divisibility": ["M", "N", "K"]}


@triton.jit
def ticket_gemm(a, b, c, counter, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tile = tl.atomic_add(counter, 1)
    pid_m = tile // tl.cdiv(N, BN)
    pid_n = tile % tl.cdiv(N, BN)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))
'''


@pytest.mark.slow
def test_a_ticket_taken_before_the_loop_is_taken_once_by_the_one_partition(tmp_path):
    pytest.importorskip("triton")
    from twill.machine.model import load_machine
    from twill.pipeline import OptimizeOptions, optimize
    path = tmp_path / "ticket_gemm.py"
    path.write_text(TICKET_GEMM)
    said: list[str] = []
    r = optimize(str(path), load_machine("h100"), OptimizeOptions(time_limit=2.5, total_time=7.5, threads=2,
                                                                  persistent="off"), said.append)
    # the warp-specialized candidates refused (the producer would take a ticket of its own) ...
    assert any("runs an atomic before the loop once, in the first consumer, so no other partition may need its "
               "result (found tt.atomic_rmw whose result partition 1 needs too)" in (c.error or "")
               for c in r.gluon.candidates)
    # ... and the kernel written as one partition loading its own tiles, which takes the ticket once
    k = r.gluon.kernel
    assert k is not None and len(k.plan.partitions) == 1, r.gluon.reason
    assert k.source.count("gl.atomic_add(counter, 1") == 1, k.source
    assert any("a producer's copies would wait for a value only the first consumer computes" in m for m in said)
