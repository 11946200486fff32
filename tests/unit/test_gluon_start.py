"""A wait before the scheduled loop (``codegen/gluon/start.py``): the other partitions' loads follow it."""
from __future__ import annotations

import re

from twill.machine.model import load_machine
from twill.pipeline import OptimizeOptions

SPIN_GEMM = '''
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "flag_ptr": "*i32", "K": "i32",
                            "ready": "i32"},
              "constexprs": {"BM": 128, "BN": 128, "BK": 64}, "num_warps": 4, "num_stages": 3,
              "divisibility": ["a_ptr", "b_ptr", "c_ptr", "K"]}


@triton.jit
def spin_gemm(a_ptr, b_ptr, c_ptr, flag_ptr, K, ready, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    if ready != 0:      # xFormers' guard: an scf.while at the top of the kernel is refused
        while tl.atomic_cas(flag_ptr + pid, 0, 0) != ready:     # a peer's rows are in once its flag is set
            pass
    rm = pid * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * K + rk[None, :]
    b = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a), tl.load(b))
        a += BK
        b += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))
'''


def test_a_spin_wait_before_the_loop_orders_the_producers_loads_after_it(tmp_path):
    # xFormers' sequence-parallel matmul (tests/corpus/xformers_seqpar_matmul.py, session 50): the first consumer ran
    # the spin on the peer's flag, the producer copied the peer's rows at once, before the flag was seen
    from twill.pipeline import optimize
    path = tmp_path / "spin_gemm.py"
    path.write_text(SPIN_GEMM)
    r = optimize(str(path), load_machine("h200"), OptimizeOptions(emit="gluon", time_limit=1.25, total_time=5, threads=1))
    src = r.gluon.kernel.source if r.gluon.kernel is not None else ""
    assert "def producer_" in src, [n for n in r.notes if n.startswith("gluon kernel")]
    producer = src[src.index("def producer_"):]
    first = producer.splitlines()[1].strip()
    assert first == "mbarrier.wait(twill_start.index(0), 0)", first
    consumer = src[src.index("def consumer_0("):src.index("def producer_")]
    arrive = consumer.index("mbarrier.arrive(twill_start.index(0))")
    assert consumer.index("gl.atomic_cas(") < arrive < consumer.index("for "), consumer
    assert re.search(r"twill_start = gl.allocate_shared_memory", src)
    assert any("a wait before the loop" in d for d in r.gluon.kernel.decisions)


def test_a_relaxed_atomic_before_the_loop_needs_no_start_barrier():
    from codegen.gluon.start import acquires
    from twill.ir.function import read_function
    text = '''module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%p: !tt.ptr<i32>, %q: !tt.ptr<i32>) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = tt.atomic_rmw add, relaxed, gpu, %p, %c1 : (!tt.ptr<i32>, i32) -> i32
    %b = tt.atomic_rmw add, acq_rel, gpu, %q, %c1 : (!tt.ptr<i32>, i32) -> i32
    %c = tt.atomic_cas acquire, gpu, %q, %c0, %c0 : (!tt.ptr<i32>, i32, i32) -> i32
    %d = tt.load %p {isVolatile = true} : !tt.ptr<i32>
    tt.return
  }
}
'''
    ops = [o for o in read_function(text, "k").ops if o.name != "arith.constant"]
    assert [acquires(o) for o in ops[:4]] == [False, True, True, True]
