"""``twill capture`` marks the autotuner's choice among the specialisations it records (``twill.ir.capture``), also
for a kernel file loaded by path and never put in ``sys.modules`` (run 97: Mamba's bmm, loaded so, had none marked)."""
from __future__ import annotations

from types import SimpleNamespace

from twill.ir.capture import Capture, _chosen_configs


def _entry(block_m: int, warps: int) -> dict:
    return {"module": "not_in_sys_modules", "function": "_bmm_kernel", "constexprs": {"BLOCK_M": block_m},
            "num_warps": warps, "num_stages": 4, "launches": 700, "chosen": False}


def _autotuner(chose: SimpleNamespace) -> SimpleNamespace:
    jit = type("JITFunction", (), {})()                 # where the search for the autotuner stops
    return SimpleNamespace(configs=[chose], cache={("key",): chose}, fn=jit)


def test_the_choice_is_found_through_the_kernel_functions_globals():
    chose = SimpleNamespace(kwargs={"BLOCK_M": 64}, num_warps=4, num_stages=4)
    scope = {"_bmm_kernel": _autotuner(chose)}
    assert _chosen_configs(_entry(64, 4)) == []                        # by its module's name: not found
    assert _chosen_configs(_entry(64, 4), scope) == [chose]
    cap = Capture()
    cap.records = {"a": _entry(128, 4), "b": _entry(64, 4), "c": _entry(64, 8)}
    cap.scopes = {"a": scope, "b": scope, "c": scope}
    assert [e["chosen"] for e in cap.entries()] == [False, True, False]
    assert not any(r["chosen"] for r in cap.records.values())          # the records themselves are left as they were
