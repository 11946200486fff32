"""Stores before an early return (``plain.entry_effects``): every program runs them, those that return too, so the
Gluon kernel writes them in the kernel before its guards, once, and its consumer leaves them; one after the scheduled
loop is refused in one line. The corpus kernel is triton_kernels' routing style (``tests/corpus/memset_guarded_gemm.py``;
``tk_topk_forward.py`` is the real one)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from twill.errors import TwillError
from twill.machine.model import load_machine
from twill.pipeline import OptimizeOptions, optimize

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests/corpus/memset_guarded_gemm.py"


def _function(source: str, name: str) -> str:
    m = re.search(rf"^def {name}\(.*?(?=^@gluon\.jit|^# -- host side)", source, re.M | re.S)
    assert m, name
    return m.group(0)


def test_the_memset_before_the_early_return_is_written_in_the_kernel_before_it_once():
    # the one-partition kernel for short loops asked for (its CTAs an SM no more than the producer's: the default
    # route keeps none, run 159), so both of the module's kernels are checked
    r = optimize(str(CORPUS), load_machine("h200"),
                 OptimizeOptions(time_limit=2.5, total_time=7.5, threads=2, short_loops="8"))
    k = r.gluon.kernel
    assert k is not None, r.gluon.reason
    for entry, parts in (("twill_kernel", ("consumer_0", "producer_1")), ("twill_kernel_short", ("consumer_0_short",))):
        body = _function(k.source, entry)
        assert body.index("gl.store(") < body.index("return") and body.count("gl.store(") == 1
        for p in parts:
            if f"def {p}(" in k.source:
                assert "s_ptr +" not in _function(k.source, p)       # the consumer does not write it again
    assert any("before its early return (its stores run on every path" in d for d in k.decisions), k.decisions
    assert any(d.startswith("early return at") and "not persistent" in d for d in k.decisions), k.decisions


def test_a_store_after_the_loop_before_an_early_return_is_refused_in_one_line(tmp_path):
    text = CORPUS.read_text()
    guard = "    if pid_m * BLOCK_M >= num_valid:\n        return\n"
    assert guard in text
    text = text.replace(guard, "")
    text = text.replace("    c = acc.to(tl.float16)\n",
                        "    tl.store(s_ptr + BLOCK_S * pid + tl.arange(0, BLOCK_S), tl.zeros([BLOCK_S], tl.int32))\n"
                        + guard + "    c = acc.to(tl.float16)\n")
    path = tmp_path / "late_guard.py"
    path.write_text(text)
    try:
        r = optimize(str(path), load_machine("h200"), OptimizeOptions(time_limit=2.5, total_time=7.5, threads=2))
    except TwillError as e:
        reason = str(e)
    else:
        assert r.gluon.kernel is None
        reason = r.gluon.reason
    assert "stores before an early return before the scheduled loop" in reason and "\n" not in reason, reason
