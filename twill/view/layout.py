"""The layered (Sugiyama-style) layout of the dependence graph: layers, virtual points, crossing reduction, x."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import networkx as nx

from twill.view.model import ViewEdge

NODE_W = 158          # px of a node box
NODE_GAP = 44         # px between two boxes of a layer
VIRTUAL_W = 18.0      # px a long edge takes where it passes a layer
VIRTUAL_GAP = 12.0    # px between a passing edge and its neighbours
Rows = dict[int, list[str]]   # per layer, its items from left to right


@dataclass(frozen=True)
class GraphLayout:
    """Where the graph's nodes go: ``layer`` per node; ``rows`` per layer, in order, holding node ids
    and the virtual points (``"\\0<edge>:<k>"``) that long forward edges pass through; ``x`` the
    centre of every item; ``chains`` the items each long forward edge passes through, by edge index."""

    layer: dict[str, int]
    rows: Rows
    x: dict[str, float]
    chains: dict[int, list[str]]


def is_virtual(item: str) -> bool:
    return item.startswith("\0")


def _acyclic(ids: list[str], fwd: list[tuple[str, str]]) -> nx.DiGraph:
    """The graph of ``fwd``; a zero-distance cycle (an invalid graph) is broken at program order, by
    leaving out the edges inside a strongly connected component that go back in ``ids``."""
    idx = {v: i for i, v in enumerate(ids)}
    g = nx.DiGraph()
    g.add_nodes_from(ids)
    g.add_edges_from(fwd)
    for comp in list(nx.strongly_connected_components(g)):
        if len(comp) > 1:
            g.remove_edges_from([(a, b) for a, b in g.subgraph(comp).edges if idx[b] < idx[a]])
    return g


def layers(ids: list[str], es: list[tuple[str, str, int]]) -> dict[str, int]:
    """Longest path over distance-0 edges; a node with no predecessor sits just above its first
    consumer (loads next to the GEMM they feed, not at the top of a long edge)."""
    fwd = [(a, b) for a, b, d in es if d == 0 and a != b]
    layer = {v: k for k, generation in enumerate(nx.topological_generations(_acyclic(ids, fwd))) for v in generation}
    succ: dict[str, list[str]] = {v: [] for v in ids}
    for a, b in fwd:
        succ[a].append(b)
    preds = {b for a, b in fwd}
    for v in ids:
        if v not in preds and succ[v]:
            layer[v] = max(layer[v], min(layer[w] for w in succ[v]) - 1)
    return layer


def _rows_with_virtual_points(ids: list[str], es: list[tuple[str, str, int]], layer: dict[str, int]
                              ) -> tuple[Rows, dict[str, int], list[tuple[str, str]], dict[int, list[str]]]:
    """Rows of nodes in program order, plus a virtual point in every layer a long forward edge
    passes; the links between items of adjacent layers (upper first); the layer of every item; the
    chain of virtual points of each long edge."""
    rows: Rows = {}
    for v in ids:
        rows.setdefault(layer[v], []).append(v)
    links: list[tuple[str, str]] = []
    chains: dict[int, list[str]] = {}
    item_layer = dict(layer)
    for i, (a, b, _) in enumerate(es):
        if a == b or layer[b] <= layer[a]:
            continue
        chain = [a]
        for k, lay in enumerate(range(layer[a] + 1, layer[b])):
            v = f"\0{i}:{k}"
            rows[lay].append(v)
            item_layer[v] = lay
            chain.append(v)
        chain.append(b)
        chains[i] = chain[1:-1]
        links += list(zip(chain, chain[1:]))
    return rows, item_layer, links, chains


def _neighbours(items: Iterable[str], links: list[tuple[str, str]]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The items linked above and below each item."""
    up: dict[str, list[str]] = {v: [] for v in items}
    down: dict[str, list[str]] = {v: [] for v in items}
    for a, b in links:
        down[a].append(b)
        up[b].append(a)
    return up, down


def crossings(rows: Rows, links: list[tuple[str, str]], layer: dict[str, int]) -> int:
    """How many pairs of links between the same two layers cross."""
    pos = {v: i for r in rows.values() for i, v in enumerate(r)}
    by: dict[int, list[tuple[int, int]]] = {}
    for a, b in links:
        by.setdefault(layer[a], []).append((pos[a], pos[b]))
    return sum(1 for ps in by.values() for i, (a, b) in enumerate(ps) for c, d in ps[i + 1:] if (a - c) * (b - d) < 0)


def _reduce_crossings(rows: Rows, links: list[tuple[str, str]],
                      item_layer: dict[str, int]) -> Rows:
    """Barycentre sweeps, down and up in turn; the order with the fewest crossings seen is kept (ties
    keep the earlier order, so the layout is the same on every run)."""
    up, down = _neighbours(item_layer, links)
    rows = {k: list(r) for k, r in rows.items()}
    best, best_rows = crossings(rows, links, item_layer), {k: list(r) for k, r in rows.items()}
    for sweep in range(8):
        downward = sweep % 2 == 0
        for k in sorted(rows) if downward else sorted(rows, reverse=True):
            pos = {v: i for r in rows.values() for i, v in enumerate(r)}
            old = {v: i for i, v in enumerate(rows[k])}

            def key(v: str) -> tuple[float, int]:
                nb = up[v] if downward else down[v]
                return (sum(pos[w] for w in nb) / len(nb) if nb else old[v], old[v])
            rows[k].sort(key=key)
        c = crossings(rows, links, item_layer)
        if c < best:
            best, best_rows = c, {k: list(r) for k, r in rows.items()}
    return best_rows


def _gap(a: str, b: str) -> float:
    """Centre-to-centre distance of two neighbours in a row."""
    wa, wb = (VIRTUAL_W if is_virtual(v) else float(NODE_W) for v in (a, b))
    return (wa + wb) / 2 + (VIRTUAL_GAP if is_virtual(a) or is_virtual(b) else NODE_GAP)


def _place_x(rows: Rows, up: dict[str, list[str]], down: dict[str, list[str]]) -> dict[str, float]:
    """Pack each row about 0, then pull every item toward its neighbours' mean, keeping the gaps."""
    x: dict[str, float] = {}
    for r in rows.values():
        cur = 0.0
        for i, v in enumerate(r):
            cur = cur + _gap(r[i - 1], v) if i else 0.0
            x[v] = cur
        shift = cur / 2
        for v in r:
            x[v] -= shift
    for it in range(10):
        for k in sorted(rows) if it % 2 == 0 else sorted(rows, reverse=True):
            r = rows[k]
            want = [(sum(x[w] for w in up[v] + down[v]) / len(up[v] + down[v])) if up[v] + down[v] else x[v] for v in r]
            place = list(want)
            for i in range(1, len(r)):
                place[i] = max(place[i], place[i - 1] + _gap(r[i - 1], r[i]))
            drift = sum(p - w for p, w in zip(place, want)) / len(r)
            place = [p - drift for p in place]
            for i in range(1, len(r)):
                place[i] = max(place[i], place[i - 1] + _gap(r[i - 1], r[i]))
            for v, p in zip(r, place):
                x[v] = p
    return x


def graph_layout(ids: list[str], edges: Iterable[ViewEdge | tuple[str, str, int]]) -> GraphLayout:
    """A layered (Sugiyama-style) layout: layers from the DAG of distance-0 edges, virtual points on
    long edges, barycentre ordering kept at its fewest crossings, then x placed near neighbours."""
    es = [(e.src, e.dst, e.distance) if isinstance(e, ViewEdge) else tuple(e) for e in edges]
    layer = layers(ids, es)
    rows, item_layer, links, chains = _rows_with_virtual_points(ids, es, layer)
    rows = _reduce_crossings(rows, links, item_layer)
    up, down = _neighbours(item_layer, links)
    return GraphLayout(layer=layer, rows=rows, x=_place_x(rows, up, down), chains=chains)


def layer_layout(ids: list[str], edges: Iterable[ViewEdge | tuple[str, str, int]]) -> dict[str, tuple[int, int]]:
    """(layer, position among the layer's nodes) per node of :func:`graph_layout`.

    Examples
    --------
    >>> layer_layout(["S", "P", "O"], [("S", "P", 0), ("P", "O", 0), ("O", "O", 1)])
    {'S': (0, 0), 'P': (1, 0), 'O': (2, 0)}
    """
    lay = graph_layout(ids, edges)
    out = {}
    for k, r in lay.rows.items():
        for i, v in enumerate(w for w in r if not is_virtual(w)):
            out[v] = (k, i)
    return {v: out[v] for v in ids}
