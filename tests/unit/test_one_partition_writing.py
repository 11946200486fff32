"""What a kernel of one partition writes around its loop (session 91's sweeps): the code before the kernel's own tile
loop once, before it, though no loop precedes the nest (triton_kernels' grouped reduce had loaded its K indices again
for every tile); a tuple's targets renamed in the loop as written (lmdeploy's bitonic top-k: ``a, b = gl.split(x)``
had its second target taken for a keyword argument and left unrenamed, a NameError in every warp-group candidate);
the replay's own pointer loads priced by their latency and their transfer (rtp-llm's gate GEMM had replayed at the
cost of its two conversions, 256 cycles, against the schedule's 2560)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("triton")

from twill.machine.model import load_machine  # noqa: E402
from twill.pipeline import OptimizeOptions, optimize  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus"


def _route(stem: str):
    r = optimize(str(CORPUS / f"{stem}.py"), load_machine("h100"), OptimizeOptions(time_limit=2.5, threads=2))
    assert r.gluon is not None and r.gluon.kernel is not None, r.gluon and r.gluon.reason
    return r.gluon


def test_the_code_before_the_tile_loop_is_written_once_before_it():
    k = _route("triton_kernels_reduce_grouped").kernel
    consumer = k.source[k.source.index("def consumer_0("):]
    consumer = consumer[:consumer.index("\n\n\n")]
    tile = consumer.index("for XScalePtrs")
    index_loads = [m.start() for m in re.finditer(r"indxs_\d+ = gl\.load\(", consumer)]
    assert len(index_loads) == 4 and all(i < tile for i in index_loads), consumer[:tile]


def test_a_tuples_targets_are_renamed_in_the_loop_as_written():
    from codegen.gluon.kernel import renamed
    assert renamed("lo, hi = gl.split(x)", {"lo", "hi", "x"}) == "lo_w, hi_w = gl.split(x_w)"
    assert renamed("y = gl.load(p, mask=mask)", {"y", "mask"}) == "y_w = gl.load(p, mask=mask_w)"   # a keyword stays
    g = _route("lmdeploy_bitonic_topk_merge")      # each warp-group candidate written (every one had a NameError)
    assert len(g.candidates) >= 2 and all(c.kernel is not None and not c.error for c in g.candidates), \
        [c.error for c in g.candidates]


def test_a_partitions_own_pointer_loads_cost_the_replay_their_transfer():
    g = _route("rtp_llm_bf16_gate_gemm")
    c = g.chosen
    assert c.kernel.plan.producer is None                       # one partition: its warps issue the loads
    lsu = sum(r.length for o in c.costed.ops if o.kind == "load" for r in o.rrt if r.unit == "lsu")
    assert lsu >= 2000                                          # two 32 KB loads an iteration through the LSU (cycles)
    assert c.replayed is not None and c.replayed >= lsu * 0.95, (c.replayed, lsu)
