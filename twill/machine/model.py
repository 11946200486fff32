"""GPU machine models: functional units, memories and cost-model rates, one TOML file per GPU."""
from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from twill.errors import MachineError
from twill.graph.model import UNITS
from twill.ir.target import Target

_DIR = Path(__file__).parent


@dataclass(frozen=True)
class Machine:
    """A GPU at tile granularity: unit capacities, memory capacities (bytes per SM for one CTA),
    per-SM per-cycle rates for the cost model, and the citation of every constant."""

    name: str
    gpu: str
    sm: int
    sm_count: int
    clock_ghz: float
    max_regs_per_thread: int
    max_warp_groups: int
    threads_per_warp_group: int
    unit_caps: tuple[tuple[str, int], ...]
    memory_caps: tuple[tuple[str, int], ...]
    rate_table: tuple[tuple[str, float], ...]
    sources: tuple[tuple[str, str], ...]
    text: str
    written: tuple[tuple[str, float], ...] = ()   # [written]: costs measured in the kernels twill writes itself


    def __post_init__(self) -> None:
        for unit, cap in self.unit_caps:
            if unit not in UNITS or cap < 1:
                raise MachineError("bad functional unit", where=self.name,
                                   expected=f"one of {' | '.join(UNITS)} with capacity >= 1", found=f"{unit} = {cap}")
        missing = {"registers", "smem", "tmem"} - set(dict(self.memory_caps))
        if missing:
            raise MachineError("machine model lacks a memory", where=self.name, expected="registers, smem, tmem",
                               found="no " + ", ".join(sorted(missing)))
        if self.sm not in (90, 100):
            raise MachineError("unsupported compute capability", where=self.name, expected="sm 90 or 100",
                               found=str(self.sm))

    @property
    def units(self) -> dict[str, int]:
        """Functional unit -> instances per SM at tile granularity."""
        return dict(self.unit_caps)

    @property
    def rates(self) -> dict[str, float]:
        """Cost-model rates, per SM per cycle (see the machine file for each one's source)."""
        return dict(self.rate_table)

    @property
    def memories(self) -> dict[str, int]:
        return dict(self.memory_caps)

    def rate(self, key: str) -> float:
        r = dict(self.rate_table)
        if key not in r:
            raise MachineError("machine model lacks a rate", where=self.name, expected=key, found="none")
        return float(r[key])

    def written_cost(self, key: str) -> float | None:
        """A cost of the kernels twill writes itself (the Gluon back end), measured in them per partition
        (the machine file's ``[written]`` table, each with its measurement); None where the file has none."""
        value = dict(self.written).get(key)
        return None if value is None else float(value)

    @property
    def target(self) -> Target:
        """What the IR layer needs of this GPU (its name and compute capability)."""
        return Target(self.name, self.sm)

    @property
    def smem_per_cta(self) -> int:
        """Shared memory one CTA may use, bytes."""
        return int(self.memories["smem"])

    def reg_bytes_per_warp_group(self, reg_limit: int | None = None) -> int:
        """Register bytes one warp group may hold: per-thread limit x 4 B x 128 threads."""
        return (reg_limit or self.max_regs_per_thread) * 4 * self.threads_per_warp_group


def known() -> list[str]:
    """Names of the machine models shipped (one TOML file each): the ``--arch`` choices."""
    return sorted(p.stem for p in _DIR.glob("*.toml"))


def load_machine(name: str) -> Machine:
    """The machine model of ``name`` (h100, h200, b200).

    Examples
    --------
    >>> load_machine("h100").units["tc"]
    1
    """
    path = _DIR / f"{name}.toml"
    if not path.is_file():
        raise MachineError("unknown arch: no machine model of that name", expected="one of " + " | ".join(known()), found=name)
    text = path.read_text()
    try:
        d = tomllib.loads(text)
        sources = _comments(text)
        return Machine(name=d["name"], gpu=d["gpu"], sm=int(d["sm"]), sm_count=int(d["sm_count"]),
                       clock_ghz=float(d["clock_ghz"]), max_regs_per_thread=int(d["max_regs_per_thread"]),
                       max_warp_groups=int(d["max_warp_groups"]),
                       threads_per_warp_group=int(d["threads_per_warp_group"]),
                       unit_caps=tuple(sorted((k, int(v)) for k, v in d["units"].items())),
                       memory_caps=tuple(sorted((k, int(v)) for k, v in d["memories"].items())),
                       rate_table=tuple(sorted((k, float(v)) for k, v in d["rates"].items())),
                       sources=tuple(sorted(sources.items())), text=text,
                       written=tuple(sorted((k, float(v)) for k, v in d.get("written", {}).items())))
    except (KeyError, ValueError, TypeError, AttributeError, tomllib.TOMLDecodeError) as e:
        raise MachineError("malformed machine model", where=str(path), found=f"{type(e).__name__}: {e}") from None


def _comments(text: str) -> dict[str, str]:
    out = {}
    section = ""
    for line in text.splitlines():
        if m := re.match(r"^\[(\w+)\]", line):
            section = m.group(1) + "."
        elif m := re.match(r"^(\w+)\s*=\s*[^#]*#\s*(.+)$", line):
            out[section + m.group(1)] = m.group(2).strip()
    return out


def pointer_load_wait(m: Machine) -> float:
    """The Gluon replay's wait for a pointer load a partition issues itself, as a multiple of the model's latency (the
    machine file's ``pointer_load_wait``; 1 where it has none)."""
    return m.written_cost("pointer_load_wait") or 1.0


def machine_sha(m: Machine) -> str:
    """SHA-256 of the machine file's text: schedules record which model they were solved for."""
    return hashlib.sha256(m.text.encode()).hexdigest()


def show(m: Machine) -> str:
    """The model as text, every constant with its source (``twill machine show``)."""
    src = dict(m.sources)
    lines = [f"{m.name}: {m.gpu}, sm_{m.sm}, {m.sm_count} SMs at {m.clock_ghz} GHz",
             f"  warp groups <= {m.max_warp_groups} x {m.threads_per_warp_group} threads, "
             f"<= {m.max_regs_per_thread} registers per thread", "constants:"]
    for k in ("sm", "sm_count", "clock_ghz", "max_regs_per_thread", "max_warp_groups", "threads_per_warp_group"):
        lines.append(f"  {k:<22} {getattr(m, k):>10}   {src.get(k, '')}")
    lines.append("units (capacity at tile granularity):")
    for k, v in m.unit_caps:
        lines.append(f"  {k:<22} {v:>10}   {src.get('units.' + k, '')}")
    lines.append("memories (bytes per SM for one CTA):")
    for k, v in m.memory_caps:
        lines.append(f"  {k:<22} {v:>10}   {src.get('memories.' + k, '')}")
    lines.append("rates (per SM per cycle):")
    for k, v in m.rate_table:
        lines.append(f"  {k:<22} {v:>10g}   {src.get('rates.' + k, '')}")
    return "\n".join(lines) + "\n"
