"""Correctness checks on the GPU: the relative error of an output against its reference, and outputs poisoned
with NaN so that an element a kernel never writes shows. Used by ``twill validate`` (both routes) and the
benchmarks; imports torch only when called."""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Iterator


def rel_err(x: Any, ref: Any) -> float:
    """Relative error ||x - ref|| / ||ref|| (Frobenius), in float32. Equal elements differ by nothing, infinities
    included, and the scale is the reference's finite elements: an output that matches exactly is 0, never NaN
    (FlashInfer's merged LSE is -inf where a position has no states; triton_kernels' top-k returns a scratch buffer
    it zeroes: both compared as 0/0 = NaN, which ``max`` over a launch's outputs then skipped)."""
    import torch

    x, ref = x.float(), ref.float()
    diff = torch.where(x == ref, torch.zeros_like(ref), x - ref).norm()
    if diff.item() == 0:
        return 0.0
    return (diff / torch.where(torch.isfinite(ref), ref, torch.zeros_like(ref)).norm()).item()


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
    aligned for the specialisation), outputs poisoned with NaN; each output's relative error, and pass or not.

    Each problem is launched twice on copies of the same inputs: a kernel whose outputs are not bit for bit the same
    both times races (run 52: bias_attention's error moved from 4.4e-3 to 7.1e-3 between runs of one seed, inside the
    tolerance) and fails, unless the kernel file uses atomics (``tl.atomic_*``: float additions land in any order, a
    lock goes to whichever program comes first) or says ``DETERMINISTIC = False``."""
    import torch

    small = dict(getattr(mod, "SMALL", None) or mod.PROBLEM)
    sizes = [small, dict(mod.PROBLEM)] + [dict(x) for x in getattr(mod, "MORE_CHECKS", ())]
    deterministic = _deterministic(mod)
    checks = []
    for seed in (11, 12):
        for size in sizes:
            inp = mod.make_inputs(**size, seed=seed)
            ref = mod.reference(inp)
            runs = []
            for _ in range(2):            # on copies: a kernel that writes its inputs sees the same ones again
                with poisoned_outputs():
                    got = mod.launch(_copied(inp))
                if torch.cuda.is_available():
                    torch.cuda.synchronize()
                runs.append(list(got) if isinstance(got, (tuple, list)) else [got])
            pairs = list(zip(runs[0], ref if isinstance(ref, (tuple, list)) else [ref]))
            errs = [rel_err(g, r) for g, r in pairs]
            nan = any(bool(torch.isnan(g.float()).any().item()) for g, _ in pairs)
            repeatable = all(same_bits(a, b) for a, b in zip(*runs))
            checks.append({"seed": seed, "problem": size, "rel_err": errs, "nan": nan, "repeatable": repeatable,
                           "pass": (not nan) and all(e < tol for e in errs) and (repeatable or not deterministic)})
            del inp, ref, runs
    return checks


_AS_INT = {1: "uint8", 2: "int16", 4: "int32", 8: "int64"}


def same_bits(a: Any, b: Any) -> bool:
    """Whether two outputs hold the same bits (a float compared as the integers of its width: NaN against NaN, -0
    against +0 as they are)."""
    import torch

    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if not a.dtype.is_floating_point:
        return bool(torch.equal(a, b))
    as_int = getattr(torch, _AS_INT[a.element_size()])
    return bool(torch.equal(a.contiguous().view(as_int), b.contiguous().view(as_int)))


def _deterministic(mod: Any) -> bool:
    """Whether kernel file ``mod`` should give the same bits every launch: its ``DETERMINISTIC``, else whether its
    source (``__file__``) uses no atomic."""
    said = getattr(mod, "DETERMINISTIC", None)
    if said is not None:
        return bool(said)
    path = getattr(mod, "__file__", None)
    try:
        return path is None or ".atomic_" not in Path(path).read_text(encoding="utf-8")
    except OSError:
        return True


def _copied(x: Any) -> Any:
    """``x`` (a kernel file's inputs) with every tensor in it cloned."""
    import torch

    if isinstance(x, torch.Tensor):
        return x.clone()
    if isinstance(x, dict):
        return {k: _copied(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_copied(v) for v in x)
    return x
