"""A load whose mask is computed from the loop's index and loop invariants alone (``twill.graph.build._index_only``):
aiter's gated FF (tests/corpus, session 90's sweep) with its K tail masked, ``(offs_m < M) & (offs_k < K - k *
BLOCK_K)``. Its loads had lost their streaming flag (the mask a separate node feeding them), their whole latency then
costed in the schedule: 2872 cycles an iteration predicted against 800 with the tail unmasked, for a kernel the
Gluon back end writes the same way."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("triton")

from twill.cli import main  # noqa: E402

FF = Path(__file__).resolve().parents[2] / "tests" / "corpus" / "aiter_ff_fused_gated.py"


def _graph(tmp_path: Path, even: bool) -> dict:
    out = tmp_path / f"g{even}.json"
    assert main(["graph", str(FF), "--arch", "h100", "--const", f"EVEN_K={even}", "--json", "-o", str(out)]) == 0
    return json.loads(out.read_text())


def test_loads_masked_by_the_loops_index_alone_still_stream(tmp_path):
    masked, plain = _graph(tmp_path, False), _graph(tmp_path, True)
    loads = {n["id"]: n for n in masked["nodes"] if n["kind"] == "load"}
    assert len(loads) == 3 and all(n["streaming"] for n in loads.values())
    feeders = {e["src"] for e in masked["edges"] if e["dst"] in loads}
    assert feeders and all(n["kind"] == "elementwise" for n in masked["nodes"] if n["id"] in feeders)
    assert [n["streaming"] for n in plain["nodes"] if n["kind"] == "load"] == [True] * 3


def test_a_load_a_loaded_value_feeds_does_not_stream(tmp_path):
    # a CSR SpMM's rows gathered through column indices loaded in the loop: not known an iteration ahead
    src = (Path(__file__).resolve().parents[2] / "tests" / "corpus" / "csr_spmm_rows.py")
    out = tmp_path / "csr.json"
    assert main(["graph", str(src), "--arch", "h100", "--json", "-o", str(out)]) == 0
    g = json.loads(out.read_text())
    ids = {n["id"]: n for n in g["nodes"]}
    fed = {e["dst"] for e in g["edges"] if ids[e["src"]]["kind"] == "load" and e["distance"] == 0}
    assert any(ids[v]["kind"] == "load" and not ids[v]["streaming"] for v in fed)
