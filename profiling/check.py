"""Correctness checks on the GPU: the relative error of an output against its reference, and outputs poisoned
with NaN so that an element a kernel never writes shows. Used by ``twill validate`` (both routes) and the
benchmarks; imports torch only when called."""
from __future__ import annotations

import contextlib
from typing import Any, Iterator


def rel_err(x: Any, ref: Any) -> float:
    """Relative error ||x - ref|| / ||ref|| (Frobenius), in float32."""
    return ((x.float() - ref.float()).norm() / ref.float().norm()).item()


@contextlib.contextmanager
def poisoned_outputs() -> Iterator[None]:
    """Within the block every ``torch.empty`` (the outputs a launch allocates) is filled with NaN, so
    an element the kernel never writes shows as NaN (torch's deterministic fill of uninitialised memory)."""
    import torch
    import torch.utils.deterministic as det

    mode, warn, fill = (torch.are_deterministic_algorithms_enabled(),
                        torch.is_deterministic_algorithms_warn_only_enabled(), det.fill_uninitialized_memory)
    torch.use_deterministic_algorithms(True, warn_only=True)
    det.fill_uninitialized_memory = True
    try:
        yield
    finally:
        det.fill_uninitialized_memory = fill
        torch.use_deterministic_algorithms(mode, warn_only=warn)


def first_output(x: Any) -> Any:
    return x[0] if isinstance(x, (tuple, list)) else x


def output_checks(mod: Any, tol: float = 1e-2) -> list[dict[str, Any]]:
    """The kernel file ``mod``'s ``launch`` (whatever JIT function it holds now) against its ``reference``: two seeds,
    its small and real problems (and its ``MORE_CHECKS``, problems that take other paths, e.g. arguments too little
    aligned for the specialisation), outputs poisoned with NaN; each output's relative error, and pass or not."""
    import torch

    small = dict(getattr(mod, "SMALL", None) or mod.PROBLEM)
    sizes = [small, dict(mod.PROBLEM)] + [dict(x) for x in getattr(mod, "MORE_CHECKS", ())]
    checks = []
    for seed in (11, 12):
        for size in sizes:
            inp = mod.make_inputs(**size, seed=seed)
            ref = mod.reference(inp)
            with poisoned_outputs():
                got = mod.launch(inp)
            torch.cuda.synchronize()
            pairs = list(zip(got, ref)) if isinstance(got, (tuple, list)) else [(got, ref)]
            errs = [rel_err(g, r) for g, r in pairs]
            nan = any(bool(torch.isnan(g.float()).any().item()) for g, _ in pairs)
            checks.append({"seed": seed, "problem": size, "rel_err": errs, "nan": nan,
                           "pass": (not nan) and max(errs) < tol})
            del inp, ref, got
    return checks
