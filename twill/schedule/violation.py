"""What the checker reports: one broken constraint, as expected versus got."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Violation:
    family: str      # dependence | capacity | completion | coverage | stage order | warp | memory | concurrency | together
    where: str
    expected: str
    got: str

    def __str__(self) -> str:
        return f"{self.family} at {self.where}: expected {self.expected}, got {self.got}"
