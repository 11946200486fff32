"""The iteration's floor where a kernel's own warps issue its loop's loads (``latency_floor``): the Gluon route's
predicted iteration (``twill.gluon_route.Candidate.cycles``) and the generated kernel's docstring state the
schedule's period or this floor, whichever is longer."""
from __future__ import annotations

from twill.graph.model import LoopGraph
from twill.schedule.model import Schedule


def latency_floor(costed: LoopGraph, schedule: Schedule, own: bool = False) -> float:
    """Where no warp group of the schedule is the variable-latency one, or the kernel written has no producer
    (``own``: one partition, whose loads are pointer loads it issues), the compute warps issue the loop's loads
    themselves, and the generated kernel
    writes each a stage ahead of its readers (``loads_ahead``; ``own_tiles``: its copies ``prefetch`` ahead): an
    iteration waits for the load issued that many iterations before, so it takes no less than the load's latency
    (``latency_cycles``, the model's, bytes included) over them; with the loads in their readers' stage
    (``loads_ahead`` 0) no less than the latency itself (not the latency plus the II: the II holds the load's own
    transfer, which the latency includes; run 139 measured sfast's group-norm statistics x1.10 faster in one stage,
    two CTAs an SM, than pipelined in one, which a floor of latency plus II ranked the other way round). The joint
    schedule gives a variable-latency op no latency (paper 5.3: the producer's rings hide it), so without this floor a loop of one scalar load a trip was
    predicted at 1 cycle an iteration (ColossalAI's sequence-length prefix, session 90's sweep: about 600 as
    written). 0 where a producer issues the loads."""
    info = schedule.get("warp_groups") or {}
    if not own and info.get("variable_latency") is not None and not (schedule.get("joint") or {}).get("one_partition"):
        return 0.0
    lat = max((float(o.attr("latency_cycles") or 0) for o in costed.ops
               if o.variable_latency and o.kind in ("load", "tma_load")), default=0.0)
    if lat <= 0:
        return 0.0
    ahead = int(schedule.get("prefetch") or 1) if schedule.get("own_tiles") else int(schedule.get("loads_ahead", 1))
    return lat / max(1, ahead)
