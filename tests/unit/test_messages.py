"""User-facing messages close what they open: a message cut to length closes its quotes and brackets
after the cut, and Triton's own message quoted inside ours is not broken by its apostrophe."""
from __future__ import annotations

import pytest

from codegen.placement import realisability_constraints
from twill.graph.model import LoopGraph, Op
from twill.util import clip


def _balanced(text: str) -> bool:
    body = text.replace("n't", "nt")
    return (body.count('"') % 2 == 0 and body.count("'") % 2 == 0 and body.count("`") % 2 == 0
            and body.count("(") == body.count(")") and body.count("[") == body.count("]"))


@pytest.mark.parametrize("text", [
    "'ttng.warp_group_dot' op pipeliner doesn't know how to predicate this op (in stage 0 of 2)",
    'malformed node {"id": "dot0", "kind": "dot", "unit": "tc", "ops": ["ttng.warp_group_dot"]}',
    "tt.func public @_attn_fwd(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: i32) {",
    "run `twill capture -- python train.py` on a GPU machine (it records the kernels' specialisations)",
])
@pytest.mark.parametrize("limit", [10, 25, 40, 60])
def test_a_clipped_message_closes_what_it_opened(text, limit):
    out = clip(text, limit)
    assert _balanced(out), out
    assert " ..." in out
    assert len(out.split(" ...")[0]) <= limit


def test_a_short_message_is_not_clipped():
    assert clip("short (and whole)", 80) == "short (and whole)"


def test_the_realisability_reasons_quote_tritons_message_in_double_quotes():
    g = LoopGraph("k", (Op("dot0", "dot", "tc"), Op("st0", "store", "lsu", ops=("tt.descriptor_store",))), ())
    reasons = [c.reason for c in realisability_constraints(g, "3.6.0")]
    assert len(reasons) == 2 and all(_balanced(r) and '"pipeliner doesn\'t know how to predicate this op"' in r
                           for r in reasons), reasons
