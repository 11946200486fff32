"""What the IR layer needs to know of a GPU: the arch name (a kernel's TWILL_SPEC keys overrides by it) and its
compute capability. ``twill.machine.Machine.target`` makes one; nothing below the machine layer resolves an arch."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """An arch name (``h100``) and its CUDA compute capability (``90``).

    Examples
    --------
    >>> Target("h100", 90).sm
    90
    """

    arch: str
    sm: int
