"""Graph JSON (schema ``twill.graph/1``): what ``twill graph --json`` writes and ``optimize`` reads.

Schema::

    {"schema": "twill.graph/1", "name": str, "meta": {...},
     "nodes": [{"id", "kind", "unit", "ops": [str], "ir": [str], "line", "file", "shape": [int],
                "dtype", "variable_latency", "streaming", "regs", "smem", "tmem", "attrs": {...},
                "cycles": int|null, "rrt": [{"unit", "offset", "length", "count"}],
                "cost_source": str|null}],
     "edges": [{"src", "dst", "delay": int|null, "distance", "blocking", "value"}]}

Only ``id``, ``kind`` and ``unit`` are required of a node, and ``src`` and ``dst`` of an edge.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from twill.errors import InputError, TwillError
from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.util import clip

SCHEMA = "twill.graph/1"


def graph_to_dict(g: LoopGraph) -> dict[str, Any]:
    nodes = []
    for o in g.ops:
        nodes.append({
            "id": o.id, "kind": o.kind, "unit": o.unit, "ops": list(o.ops), "ir": list(o.ir),
            "line": o.line, "file": o.file, "shape": list(o.shape), "dtype": o.dtype,
            "variable_latency": o.variable_latency, "streaming": o.streaming,
            "regs": o.regs, "smem": o.smem, "tmem": o.tmem, "attrs": dict(o.attrs),
            "cycles": o.cycles,
            "rrt": [{"unit": r.unit, "offset": r.offset, "length": r.length, "count": r.count} for r in o.rrt],
            "cost_source": o.cost_source,
        })
    edges = [{"src": d.src, "dst": d.dst, "delay": d.delay, "distance": d.distance,
              "blocking": d.blocking, "value": d.value} for d in g.deps]
    return {"schema": SCHEMA, "name": g.name, "meta": dict(g.meta), "nodes": nodes, "edges": edges}


def graph_from_dict(data: Any, where: str = "graph") -> LoopGraph:
    """Build a LoopGraph from its JSON form; malformed input raises one InputError."""
    if not isinstance(data, dict):
        raise InputError("malformed graph JSON", where=where, expected="an object", found=type(data).__name__)
    schema = data.get("schema")
    if schema != SCHEMA:
        raise InputError("unknown graph schema", where=where, expected=SCHEMA, found=repr(schema))
    try:
        ops = []
        for i, n in enumerate(data["nodes"]):
            if not isinstance(n, dict) or not {"id", "kind", "unit"} <= n.keys():
                raise InputError("malformed node", where=f"{where}: nodes[{i}]",
                                 expected="an object with id, kind and unit", found=clip(json.dumps(n), 80))
            ops.append(Op(
                id=str(n["id"]), kind=n["kind"], unit=n["unit"], ops=tuple(n.get("ops", ())),
                ir=tuple(n.get("ir", ())), line=n.get("line"), file=n.get("file"),
                shape=tuple(int(x) for x in n.get("shape", ())), dtype=n.get("dtype", ""),
                variable_latency=bool(n.get("variable_latency", False)),
                streaming=bool(n.get("streaming", False)), regs=int(n.get("regs", 0)),
                smem=int(n.get("smem", 0)), tmem=int(n.get("tmem", 0)),
                attrs=tuple(sorted(dict(n.get("attrs", {})).items())),
                cycles=None if n.get("cycles") is None else int(n["cycles"]),
                rrt=tuple(Reservation(r["unit"], int(r["offset"]), int(r["length"]), int(r.get("count", 1)))
                          for r in n.get("rrt", ())),
                cost_source=n.get("cost_source") or ("graph" if n.get("cycles") is not None else None),
            ))
        deps = []
        for i, e in enumerate(data["edges"]):
            if not isinstance(e, dict) or not {"src", "dst"} <= e.keys():
                raise InputError("malformed edge", where=f"{where}: edges[{i}]",
                                 expected="an object with src and dst", found=clip(json.dumps(e), 80))
            deps.append(Dep(src=str(e["src"]), dst=str(e["dst"]),
                            delay=None if e.get("delay") is None else int(e["delay"]),
                            distance=int(e.get("distance", 0)), blocking=bool(e.get("blocking", False)),
                            value=str(e.get("value", ""))))
        return LoopGraph(name=str(data.get("name", "graph")), ops=tuple(ops), deps=tuple(deps),
                         meta=tuple(sorted(dict(data.get("meta", {})).items())))
    except InputError:
        raise
    except TwillError as e:
        raise InputError(f"invalid graph: {e}", where=where) from None
    except (KeyError, TypeError, ValueError) as e:
        raise InputError("malformed graph JSON", where=where, expected="nodes[] and edges[] per twill.graph/1",
                         found=f"{type(e).__name__}: {e}") from None


def load_graph(path: str | Path) -> LoopGraph:
    p = Path(path)
    try:
        data = json.loads(p.read_text())
    except OSError as e:
        raise InputError("cannot read graph file", where=str(p), found=e.strerror) from None
    except json.JSONDecodeError as e:
        raise InputError("malformed graph JSON", where=f"{p}:{e.lineno}", expected="JSON", found=e.msg) from None
    return graph_from_dict(data, where=str(p))


def dump_graph(g: LoopGraph) -> str:
    return json.dumps(graph_to_dict(g), indent=1, sort_keys=False) + "\n"
