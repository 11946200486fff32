"""A wait before the scheduled loop that the other partitions' loads must follow: the first consumer runs the
code before the loop that writes memory (``kernel._effects_before``), the producer (and any other partition)
only the addresses it needs, so an acquire there (xFormers' sequence-parallel matmul spins with ``while
tl.atomic_cas(flag, 0, 0) != seq_num`` on a peer's flag before it reads the peer's rows) would order the first
consumer's reads alone: the producer's copies of the rows could run ahead of the flag. Where an atomic that may
acquire (``acquire`` / ``acq_rel``, Triton's default) or a volatile load runs before the loop, the first consumer
arrives on ``twill_start`` once its code before the loop has run (every warp of it past a ``gl.thread_barrier``),
and every other partition waits for that before anything else: the mbarrier's release / acquire carries the
acquired writes over to them, as the rings' barriers carry the tiles."""
from __future__ import annotations

import re
from typing import Any

from codegen.gluon.ops import source_where
from twill.errors import UnsupportedError
from twill.ir import vocab
from twill.ir.ttgir import IROp

START = "twill_start"


def acquires(op: IROp) -> bool:
    """Whether ``op`` (or an op in its regions) is an atomic that may acquire, or a volatile load."""
    if op.name in ("tt.atomic_rmw", "tt.atomic_cas"):
        m = re.search(r"tt\.atomic_(?:rmw\s+\w+|cas)\s*,?\s*(\w+)", op.text)
        if m is None or m.group(1) in ("acquire", "acq_rel"):
            return True
    if op.name == vocab.POINTER_LOAD and re.search(r"isVolatile = true", op.text):
        return True
    blocks = ((op.body,) if op.body is not None else ()) + op.regions
    return any(acquires(o) for b in blocks for o in b.ops)


def needs_start(plan: Any, ops: list[IROp]) -> IROp | None:
    """The first op before the kernel's first scheduled loop that acquires, where partitions other than the first
    consumer read memory in the loop (a producer, several consumers); None where there is none."""
    if plan.producer is None and len(plan.consumers) < 2:
        return None
    first = min(ops.index(q.loop) for q in plan.sequence)
    return next((o for o in ops[:first] if acquires(o)), None)


def register_start(mod: Any) -> None:
    """The start barrier where an acquire before the loop must order the other partitions' loads; a persistent
    kernel (the wait once per tile) is refused in one line."""
    gate = needs_start(mod.plan, mod.plan.fn.ops)
    if gate is None:
        return
    if mod.persistent:
        raise UnsupportedError("the Gluon back end writes a wait before the scheduled loop (an atomic that may "
                               "acquire, a volatile load) in a kernel that is not persistent",
                               where=f"{mod.plan.graph.name}, {source_where(gate)}", found="a persistent kernel")
    mod.start = True
    mod.barriers.append((START, 1, 1))
    mod.plan.decisions.append(f"a wait before the loop ({source_where(gate)}: an atomic that may acquire, or a "
                              "volatile load): run by the first consumer, which then arrives on twill_start; the "
                              "other partitions wait on it before anything else, so their loads follow it")


def start_arrive() -> list[str]:
    """The first consumer's lines once its code before the loop has run."""
    return ["gl.thread_barrier()", f"mbarrier.arrive({START}.index(0))"]


def start_wait() -> list[str]:
    """Another partition's first line."""
    return [f"mbarrier.wait({START}.index(0), 0)"]
