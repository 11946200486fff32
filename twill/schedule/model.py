"""A schedule of one loop: modulo schedule (II, start cycles), optional warp assignment, proof status."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from twill.errors import InputError

SCHEMA = "twill.schedule/1"

# Proof statuses. "optimal" is only ever set from a solver's proof.
OPTIMAL = "optimal"        # the solver proved no smaller II (and, for joint, no smaller L at that II)
FEASIBLE = "feasible"      # a valid schedule, optimality not proved (see gap)
TIMEOUT = "timeout"        # the time limit hit before any schedule was found
INFEASIBLE = "infeasible"  # proved impossible (within the searched bounds)
STATUSES = (OPTIMAL, FEASIBLE, TIMEOUT, INFEASIBLE)


@dataclass(frozen=True)
class Schedule:
    """A modulo schedule: op ``v`` of iteration ``i`` issues at ``start[v] + i * ii``.

    Times are in schedule units; one unit is ``time_unit`` machine cycles (cost normalisation
    scales cycle counts down, see ``twill.solve.normalize``). ``warp`` maps ops to warp groups
    when the joint problem was solved. ``extra`` carries the rest of the record (search trace,
    liveness, pressure, cross-warp edges, phase times) as plain JSON data.

    Examples
    --------
    >>> s = Schedule(ii=2, length=4, start=(("S", 0), ("P", 2), ("O", 3)), status="optimal", lower_bound=2)
    >>> s.stages, s.at("P")
    (2, 2)
    """

    ii: int
    length: int
    start: tuple[tuple[str, int], ...]
    status: str
    lower_bound: int
    solve_seconds: float = 0.0
    backend: str = ""
    gap: float | None = None
    time_unit: float = 1.0
    warp: tuple[tuple[str, int], ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown schedule status {self.status!r}; expected one of {STATUSES}")
        if self.status in (OPTIMAL, FEASIBLE) and self.ii < 1:
            raise ValueError(f"initiation interval must be >= 1, got {self.ii}")

    @property
    def stages(self) -> int:
        return max(1, math.ceil(self.length / self.ii)) if self.ii > 0 else 0

    @property
    def start_map(self) -> dict[str, int]:
        return dict(self.start)

    @property
    def warp_map(self) -> dict[str, int]:
        return dict(self.warp)

    def at(self, op_id: str) -> int:
        return self.start_map[op_id]

    def stage_of(self, op_id: str) -> int:
        return self.at(op_id) // self.ii

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.extra).get(key, default)

    def with_extra(self, **kv: Any) -> "Schedule":
        m = dict(self.extra)
        m.update(kv)
        return dataclasses.replace(self, extra=tuple(m.items()))

    # -- JSON -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "schema": SCHEMA, "ii": self.ii, "length": self.length, "stages": self.stages,
            "start": dict(self.start), "status": self.status, "lower_bound": self.lower_bound,
            "solve_seconds": round(self.solve_seconds, 4), "backend": self.backend, "gap": self.gap,
            "time_unit_cycles": self.time_unit,
        }
        if self.warp:
            d["warp"] = dict(self.warp)
        d.update(dict(self.extra))
        return d

    @classmethod
    def from_dict(cls, d: Any, where: str = "schedule") -> "Schedule":
        if not isinstance(d, dict) or d.get("schema") != SCHEMA:
            found = d.get("schema") if isinstance(d, dict) else type(d).__name__
            raise InputError("not a twill schedule", where=where, expected=SCHEMA, found=repr(found))
        known = {"schema", "ii", "length", "stages", "start", "status", "lower_bound", "solve_seconds",
                 "backend", "gap", "time_unit_cycles", "warp"}
        try:
            return cls(ii=int(d["ii"]), length=int(d["length"]),
                       start=tuple((str(k), int(v)) for k, v in d["start"].items()),
                       status=d["status"], lower_bound=int(d["lower_bound"]),
                       solve_seconds=float(d.get("solve_seconds", 0.0)), backend=d.get("backend", ""),
                       gap=d.get("gap"), time_unit=float(d.get("time_unit_cycles", 1.0)),
                       warp=tuple((str(k), int(v)) for k, v in d.get("warp", {}).items()),
                       extra=tuple((k, v) for k, v in d.items() if k not in known))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise InputError("malformed schedule", where=where, expected=f"fields of {SCHEMA}",
                             found=f"{type(e).__name__}: {e}") from None
