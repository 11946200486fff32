"""twill: provably optimal software pipelining and warp specialization for Triton loops."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["use", "capture"]

if TYPE_CHECKING:
    from twill.ir.capture import capture
    from twill.store.hook import use


def __getattr__(name: str) -> Any:
    # ``twill.use`` is ``twill.store.hook.use``, imported on first access so that ``import twill``
    # loads neither Triton nor torch nor a solver.
    if name == "use":
        from twill.store.hook import use

        return use
    if name == "capture":     # twill.ir.capture.capture: Triton's launch hooks, no solver
        from twill.ir.capture import capture

        return capture
    raise AttributeError(f"module 'twill' has no attribute {name!r}")
