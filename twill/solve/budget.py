"""The solvers' budget in deterministic seconds, and the wall-clock safety cap kept apart from it.

A search that stops on the wall clock answers according to the machine's speed and load: issue #14, where a
fresh solve of the FA backward found I = 242 on one machine against the committed 243, and that kernel ran
8-10 % slower. Every backend therefore stops on a count of its own work, which depends only on the model, the
solver's version and its parameters, never on the clock:

- CP-SAT: ``max_deterministic_time``, its deterministic seconds (OR-Tools: "the time unit being as close as
  possible to a second"); one worker, or several under ``interleave_search`` ("the search is deterministic,
  independently of num_workers"), with a fixed seed (``cpsat_base.cpsat_solver``);
- z3: ``rlimit``, its resource counter, ``Z3_RLIMIT_PER_SECOND`` of it to a deterministic second;
- SCIP: its simplex iterations, counted at every LP solved and node and the solve interrupted past
  ``SCIP_LP_ITERATIONS_PER_SECOND`` to a deterministic second (SCIP has no global limit on them; an LP
  under way, presolve and the heuristics between LPs are not interrupted: the wall-clock cap bounds those).

A search (``Budget``) adds up what its calls report in ``stats["work"]``, so the I values it reaches are the
same on every machine. Beside it each call and each search has a wall-clock cap, ``wall_cap(work)``, generous
(``WALL_CAP_FACTOR`` wall seconds per deterministic second, plus ``WALL_CAP_SLACK``), for pathological cases
only: a result ended by it says so (``stopped_by``: ``"wall cap"``) and is not reproducible.

Scale, measured on the project's 2-core machine (issue #14): one CP-SAT deterministic second of the FA
backward's two-sub-tile joint model (I = 240, one worker) took 3.5-4.5 CPU seconds, 5-8 wall seconds under load;
z3 counted about 13 million ``rlimit`` a CPU second on the same model, SCIP about 2,800 simplex iterations a
CPU second on its modulo model; the two conversions below are four CPU seconds of each.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

UNIT = "deterministic seconds"
# wall seconds per deterministic second before the safety cap stops a solve: the FA backward's joint search took 15
# under a CPU-bound process beside other work on the 2-core machine (114.7 s for 7.5 deterministic seconds)
WALL_CAP_FACTOR = 100.0
WALL_CAP_SLACK = 60.0           # wall seconds on top (model building, imports, a solver's fixed costs)
Z3_RLIMIT_PER_SECOND = 50_000_000
SCIP_LP_ITERATIONS_PER_SECOND = 11_000
WORK_LIMIT, WALL_CAP = "work limit", "wall cap"     # what stopped a solver call (``stats["stopped_by"]``)


def wall_cap(work: float) -> float:
    """The wall-clock safety cap, in seconds, of a solve or search allowed ``work`` deterministic seconds.

    Examples
    --------
    >>> wall_cap(1.0)
    160.0
    """
    return WALL_CAP_FACTOR * max(0.0, float(work)) + WALL_CAP_SLACK


@dataclass
class Budget:
    """A search's budget under way: ``limit`` deterministic seconds (``UNIT``) for every solver call together,
    ``spent`` the sum of what the calls reported, ``wall_cap`` the safety cap in wall seconds from ``t0``;
    ``stopped_by`` says which of the two ended the search ("budget" | "wall cap"), None while neither has.

    Examples
    --------
    >>> b = Budget(2.0)
    >>> b.charge({"work": 1.5}); b.over(), round(b.left(), 2)
    (False, 0.5)
    >>> b.charge({"work": 0.5}); b.over(), b.stopped_by
    (True, 'budget')
    """

    limit: float
    wall_cap: float | None = None
    t0: float = field(default_factory=time.perf_counter)
    spent: float = 0.0
    stopped_by: str | None = None
    calls_wall_capped: int = 0

    def __post_init__(self) -> None:
        if self.wall_cap is None:
            self.wall_cap = wall_cap(self.limit)

    def left(self) -> float:
        """Deterministic seconds left."""
        return self.limit - self.spent

    def wall_left(self) -> float:
        """Wall seconds left under the safety cap."""
        return float(self.wall_cap or 0.0) - (time.perf_counter() - self.t0)

    def charge(self, stats: dict[str, Any]) -> None:
        """Add what one solver call spent (``stats["work"]``, deterministic seconds) and note a call the wall cap
        stopped."""
        self.spent += float(stats.get("work", 0.0) or 0.0)
        if stats.get("stopped_by") == WALL_CAP:
            self.calls_wall_capped += 1

    def absorb(self, record: Any) -> None:
        """Add what an inner search spent, from its ``budget`` record (``record()``), wall-capped calls included."""
        if not isinstance(record, dict):
            return
        self.spent += float(record.get("spent", 0.0) or 0.0)
        self.calls_wall_capped += int(record.get("calls_stopped_by_wall_cap", 0) or 0)
        self.calls_wall_capped += int(record.get("stopped_by") == WALL_CAP)

    def over(self) -> bool:
        """Whether the search must stop: its deterministic budget spent, or (pathological) its wall cap reached;
        the first time, ``stopped_by`` records which."""
        if self.stopped_by is None:
            if self.spent >= self.limit:
                self.stopped_by = "budget"
            elif self.wall_left() <= 0:
                self.stopped_by = WALL_CAP
        return self.stopped_by is not None

    def call_limits(self, limit: float) -> tuple[float, float]:
        """``(deterministic seconds, wall seconds)`` one solver call may take: ``limit``, within what is left."""
        return max(0.0, min(limit, self.left())), max(0.001, min(wall_cap(limit), self.wall_left()))

    def record(self) -> dict[str, Any]:
        """The budget as ``schedule.json`` writes it (``budget``)."""
        reproducible = self.stopped_by != WALL_CAP and not self.calls_wall_capped
        return {"unit": UNIT, "limit": self.limit, "spent": round(self.spent, 4),
                "wall_cap_seconds": round(float(self.wall_cap or 0.0), 1),
                "wall_seconds": round(time.perf_counter() - self.t0, 2), "stopped_by": self.stopped_by,
                "calls_stopped_by_wall_cap": self.calls_wall_capped, "reproducible": reproducible}


def spent(record: Any) -> float:
    """Deterministic seconds a schedule's search spent, from its ``budget`` record (0 without one)."""
    return float((record or {}).get("spent", 0.0)) if isinstance(record, dict) else 0.0
