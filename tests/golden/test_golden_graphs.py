"""Golden listings of the loop graphs of the kernels in kernels/ (update: pytest tests/golden --update-golden)."""
from __future__ import annotations

from pathlib import Path

import pytest

triton = pytest.importorskip("triton")

from twill.graph.render import listing  # noqa: E402
from twill.graph.extract import graph_for_file  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CASES = [(k, a) for k in ("fa3", "fa3_subtiled", "fa_bwd", "gemm") for a in ("h100", "b200")]


@pytest.mark.skipif(triton.__version__ != "3.6.0", reason="golden listings are of triton 3.6.0's IR")
@pytest.mark.parametrize("kernel, arch", CASES, ids=[f"{k}-{a}" for k, a in CASES])
def test_golden_listing(kernel, arch, update_golden):
    graph, _ = graph_for_file(str(ROOT / "kernels" / f"{kernel}.py"), load_machine(arch).target)
    text = listing(graph)
    golden = HERE / f"{kernel}-{arch}.txt"
    if update_golden:
        golden.write_text(text)
    assert golden.exists(), f"no golden listing {golden.name}: run pytest tests/golden --update-golden"
    assert text == golden.read_text(), f"{golden.name} differs; review, then pytest tests/golden --update-golden"


def test_fa3_h100_has_the_flash_attention_structure():
    """The issue's done-when check, on the graph itself rather than its text."""
    g, _ = graph_for_file(str(ROOT / "kernels" / "fa3.py"), load_machine("h100").target)
    by_kind = {}
    for o in g.ops:
        by_kind.setdefault(o.kind, []).append(o)
    assert [o.id for o in by_kind["tma_load"]] == ["tma_load0_k", "tma_load1_v"]
    assert [o.id for o in by_kind["dot"]] == ["dot0_qk", "dot1_acc"]
    assert [dict(o.attrs)["fn"] for o in by_kind["sfu"]] == ["exp2", "exp2"]
    assert by_kind["sfu"][0].shape == (128, 128)                       # exp2 on the score tile
    assert sorted(dict(o.attrs)["fn"] for o in by_kind["reduce"]) == ["max", "sum"]
    carried = {(d.src, d.dst) for d in g.deps if d.distance == 1}
    assert ("dot1_acc", "elementwise1_acc") in carried                 # accumulator, then its rescale
    assert ("elementwise0_m_ij", "elementwise0_m_ij") in carried       # running max
    assert ("elementwise2_l_i", "elementwise2_l_i") in carried         # running sum
    rescale = g.op("elementwise1_acc")
    assert "arith.mulf" in rescale.ops and any(d.src == "sfu1_alpha" for d in g.preds(rescale.id))


def test_fa3_b200_is_a_tcgen05_graph():
    g, _ = graph_for_file(str(ROOT / "kernels" / "fa3.py"), load_machine("b200").target)
    dots = [o for o in g.ops if o.kind == "dot"]
    assert [o.ops[0] for o in dots] == ["ttng.tc_gen5_mma"] * 2
    assert {o.kind for o in g.ops} >= {"tmem_load", "tmem_store", "tma_load", "sfu", "reduce"}
