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
