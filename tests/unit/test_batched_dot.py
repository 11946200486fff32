"""A 3-D (batched) ``tl.dot``: ``[B, M, K] x [B, K, N]`` is B products, which Triton lowers to synchronous mma.sync
(never wgmma). lucidrains' NSA forward (session 91's sweep) gathers 64 blocks of K and V per query row and multiplies
them by 16-row query tiles: its two dots had been read as one 64 x 64 x 16 wgmma each, 32 cycles, 64 times too
cheap, and asynchronous."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("triton")

from twill.machine.cost import op_cost  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402
from twill.pipeline import OptimizeOptions, extract  # noqa: E402
from twill.solve.joint_problem import reads_operands_async  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus"


def test_a_batched_dot_is_costed_as_its_batch_of_products_and_is_synchronous():
    h100 = load_machine("h100")
    graph, _, _ = extract(str(CORPUS / "lucidrains_nsa_fwd.py"), h100, OptimizeOptions())
    dots = [o for o in graph.ops if o.kind == "dot"]
    assert len(dots) == 2
    for d in dots:
        batch, rows, cols = d.shape                      # [64 blocks, 16 query rows, 64]
        assert d.attr("batch") == batch == 64 and d.attr("m") == batch * rows
        assert not reads_operands_async(d)
        flops = 2 * d.attr("m") * d.attr("n") * d.attr("k")
        assert flops == 2 * 64 * 16 * 64 * 64            # each dot: 64 products of 16 x 64 x 64
        cycles, _ = op_cost(d, h100)
        assert cycles == pytest.approx(flops / h100.rate("tc_flops_bf16"), rel=0.01)
    # a 2-D dot keeps its rows, columns and reduction and stays asynchronous (wgmma)
    fa, _, _ = extract(str(CORPUS / "fastvideo_vsa_block_sparse_fwd.py"), h100, OptimizeOptions())
    d2 = [o for o in fa.ops if o.kind == "dot"]
    assert d2 and all(o.attr("batch") is None and reads_operands_async(o) for o in d2)
    assert all(o.attr("m") == o.shape[0] and o.attr("n") == o.shape[1] for o in d2)
