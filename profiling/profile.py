"""The measured profile file (schema twill.profile/1), keyed by graph node ids, and its checks."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from twill.errors import ProfileError
from twill.graph.model import LoopGraph

SCHEMA = "twill.profile/1"


def graph_sha256(g: LoopGraph) -> str:
    """Hash of what a profile's node ids stand for: each node's id, kind, TTGIR ops, shape and dtype,
    the edges, the warp count and the constexprs; not source lines, file paths or costs, so an edit
    elsewhere in the kernel file leaves its profiles valid, while a changed loop does not.

    Examples
    --------
    >>> g, _ = graph_for_file("kernels/gemm.py", "h200")       # doctest: +SKIP
    >>> graph_sha256(g)[:12]                                    # doctest: +SKIP
    '3f0c...'
    """
    d = {"ops": [[o.id, o.kind, list(o.ops), list(o.shape), o.dtype] for o in g.ops],
         "deps": sorted([x.src, x.dst, x.distance, x.blocking] for x in g.deps),
         "num_warps": g.get("num_warps"), "constexprs": g.get("constexprs")}
    return hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode()).hexdigest()


def make_profile(g: LoopGraph, replayed: dict[str, Any], *, arch: str, gpu: str, triton_version: str,
                 kernel_source_sha256: str, problem: dict[str, Any], launch: dict[str, Any],
                 overhead: dict[str, Any], schedule: str | None = None,
                 machine: dict[str, Any] | None = None) -> dict[str, Any]:
    """The profile record: per-node latencies (node ids of ``g``), waits, iteration time, provenance
    (``machine``: the host, GPU, SM count and the SM clock cycles were converted with)."""
    regions = replayed["regions"]
    nodes = {n: regions[n] for n in g.ids if n in regions}
    return {"schema": SCHEMA, "kernel": g.get("kernel", g.name), "arch": arch, "gpu": gpu, "machine": machine or {},
            "triton_version": triton_version, "kernel_source_sha256": kernel_source_sha256,
            "graph_sha256": graph_sha256(g), "problem": problem,
            "launch": launch, "schedule": schedule, "overhead": overhead, "nodes": nodes,
            "unmeasured": [n for n in g.ids if n not in regions],
            "waits": {k: v for k, v in regions.items() if k.startswith("wait:")},
            "iteration": replayed["iteration"], "per_warp_group_mean_cycles": replayed["per_warp_group_mean_cycles"],
            "record_overhead_cycles": replayed["record_overhead_cycles"], "clock": replayed["clock"],
            "lost_records": replayed["lost_records"], "units": replayed["units"], "ctas": replayed["ctas"]}


def load_profile(path: str) -> dict[str, Any]:
    try:
        d = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ProfileError("unreadable profile", where=path, expected=SCHEMA, found=f"{type(e).__name__}") from None
    if not isinstance(d, dict) or d.get("schema") != SCHEMA:
        raise ProfileError("not a twill profile", where=path, expected=SCHEMA,
                           found=repr(d.get("schema") if isinstance(d, dict) else type(d).__name__))
    return d


def _rerun(g: LoopGraph, arch: str) -> str:
    return f"re-run `twill profile {g.get('source_file', 'KERNEL')} --arch {arch}` on the GPU"


def load_profile_for(path: str, g: LoopGraph, arch: str) -> dict[str, float]:
    """Measured median cycles per node of ``g`` from a profile, refused when it is another kernel's or arch's."""
    d = load_profile(path)
    kernel = g.get("kernel", g.name)
    if d.get("kernel") != kernel:
        raise ProfileError("profile is of another kernel", where=path, expected=str(kernel), found=str(d.get("kernel")))
    if d.get("arch") != arch:
        raise ProfileError("profile is of another arch", where=path, expected=arch, found=str(d.get("arch")))
    unknown = sorted(set(d["nodes"]) - set(g.ids))
    if unknown:
        raise ProfileError("profile nodes are not this graph's", where=path, expected="node ids of the graph",
                           found=", ".join(unknown[:5]), hint=_rerun(g, arch))
    if d.get("graph_sha256"):
        # The loop graph decides: a kernel file edited elsewhere keeps its profile, a changed loop does not.
        if d["graph_sha256"] != graph_sha256(g):
            raise ProfileError("profile is of another version of the kernel's loop", where=path,
                               expected=f"graph sha256 {graph_sha256(g)[:12]}", found=str(d["graph_sha256"])[:12],
                               hint=_rerun(g, arch))
    else:
        # A profile without a graph hash (written before it was recorded): only the file's hash can say.
        sha = g.get("source_sha256")
        if sha and d.get("kernel_source_sha256") and sha != d["kernel_source_sha256"]:
            raise ProfileError("profile is of another version of the kernel source", where=path,
                               expected=f"source sha256 {sha[:12]}", found=str(d["kernel_source_sha256"])[:12],
                               hint=_rerun(g, arch))
    return {n: float(v["median_cycles"]) for n, v in d["nodes"].items()}


def to_perfetto(events: list[Any], ghz: float, max_ctas: int = 8) -> dict[str, Any]:
    """A chrome / Perfetto trace with real nanoseconds (Proton writes cycles as microseconds)."""
    out = []
    for e in events:
        if e.cta >= max_ctas:
            continue
        out.append({"name": e.name, "ph": "X", "pid": f"CTA{e.cta} (SM{e.sm})", "tid": f"warp {e.warp}",
                    "ts": e.start / ghz / 1000.0, "dur": e.cycles / ghz / 1000.0,
                    "args": {"cycles": e.cycles}})
    return {"displayTimeUnit": "ns", "traceEvents": out}
