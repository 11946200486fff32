"""Build a loop's dependence graph (tile-level ops, paper section 3.1) from parsed TTGIR.

Folding rules (each IR op lands in exactly one node, listed in the node's ``ops`` / ``ir``):
- view ops (expand_dims, broadcast, memdesc_trans, reshape, ...), address arithmetic (pointer
  tensors, index ranges) and scalar bookkeeping fold into the node of their first in-loop consumer
  (a scalar carried through ``scf.yield`` serves the next iteration's consumers of that iter_arg);
- a ``ttg.local_alloc`` of a just-loaded tile folds into the load (the tile lands in shared memory);
- an elementwise op or cast whose only consumer is elementwise / special-function (or a cast) of the
  same shape folds into that consumer, so ``exp2(qk * scale - m)`` is one special-function node.
- a data scalar (a whole-tile ``tl.max`` / ``tl.sum``, a scalar ``tl.load``, arithmetic on them such
  as an online softmax's running max and sum) is tile data, not bookkeeping: it is a node of its own
  (elementwise / special-function, folded by the rule above) and its edges and recurrences are kept;
- an ``scf.if`` of the body (the prologue and epilogue Triton puts in a flattened persistent loop, a split-KV
  reduction's ``if split_kv_end > split_kv_start:`` around its loads) is one node: a store when it stores, else
  elementwise when it yields data, else bookkeeping; the pointer loads inside it are the node's own, synchronous
  (``guarded_load_bytes``: the node waits for them), its dots' work its own (``guarded_dot_flops``: a
  block-sparse kernel's skipped blocks); one that holds a TMA load or a loop is refused;
- a barrier (``tl.debug_barrier``) is a node of its own, after every global access before it in the
  body and before every one after it (``twill.graph.memory``), so it stays between the accesses it orders.
Edges carry the SSA value; values carried through ``iter_args`` give distance-1 edges (``scf.yield``
operand k feeds iter_arg k). Bookkeeping values (pointer tensors, integer index tiles, scalars that
no tile data reaches: an address increment, a loop counter) make no edges, except a tile a compute node
computes that another node reads in the same iteration (``_shared_tile``: Philox's rounds). Memory edges
(``twill.graph.memory``) keep a store before a later load of the same buffer, and so on.

Node ids: ``<kind><ordinal>`` with the ordinal counted per kind in program order, then ``_<name>``
when the defining op's location carries a source variable name (``tma_load0_k``, ``dot0_qk``,
``reduce1_l_ij``); the same input always gives the same ids.
"""
from __future__ import annotations

import dataclasses
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from twill.errors import GraphError, UnsupportedError
from twill.graph.analysis import check_no_zero_distance_cycle
from twill.graph.loops import LoopSelector, find_loop
from twill.graph.memory import memory_deps, scope_of
from twill.graph.model import MEMORY, Dep, LoopGraph, Op
from twill.ir import vocab
from twill.ir.target import Target
from twill.ir.triton_hooks import triton_version
from twill.ir.layouts import aliases, axis_spread
from twill.ir.ttgir import IROp, Module, TypeInfo, operand_type_texts, operand_types, stored_type, type_info
from twill.util import sha256

# What one element of an op costs where it is more than one ALU instruction: (ALU instructions, MUFU instructions),
# as ptxas expands it on sm_90. Run 44c measured softcap_attention's scores (a division and libdevice's tanh on each
# element) at 1947 cycles an iteration where one instruction each priced them at 352.
EXTERN = "tt.extern_elementwise"
EXPANDS = {"arith.divf": (4, 1)}          # div.full.f32: a MUFU reciprocal, the operands' scaling, a multiply
LIBDEVICE = {"__nv_tanhf": (14, 2), "__nv_expf": (3, 1), "__nv_exp2f": (1, 1), "__nv_logf": (5, 1),
             "__nv_log2f": (2, 1), "__nv_rsqrtf": (1, 1), "__nv_sqrtf": (4, 1), "__nv_erff": (16, 0),
             "__nv_powf": (30, 2), "__nv_fast_tanhf": (1, 1), "__nv_fast_expf": (2, 1)}
LIBDEVICE_DEFAULT = (12, 1)               # a libdevice function not in the table: a polynomial and a MUFU op


# Integer ops in FP32-FMA slots an element (``alu_ops`` is the FMA pipe's 128 an SM a cycle), on the two pipes an
# Hopper SM issues them to: IMAD (mul, mulhi) and the float conversions on the FMA pipe, at 64 or 32 an SM a cycle
# (2 or 4 slots); the logic ops and shifts (LOP3, SHF) on the integer pipe, 64 an SM a cycle (2 slots); a 32-bit add
# on either (IADD3 or IMAD: ptxas splits a chain of them, 1 slot on average). A node's ALU work is its busier pipe,
# or half their sum where the adds balance them. As the H200 ran them (runs 165, 168, 170: one CTA an SM, 8 warps,
# dependent chains; bench/results/gluon/runs/NOTES.md), steps an SM a cycle: fp32 FMA 126, i32 add 120, i32 mul 64,
# u32 mulhi 32, xor or and with an add 62, shift with half an or 43, f32 -> i32 -> f32 15.6 (F2I ~21, I2FP ~128),
# i64 add 63 (IADD3 + IMAD), i64 mul 15.4 (three IMAD); Philox (``tl.rand``: 16 mulhi, 14 mul, 32 xor an element) 6369
# cycles a [128, 64] tile, this model 5888; 48 integer ops an element (mul-add, xor, shift) 3195, this model 3072.
FMA_SLOTS = {"arith.muli": 2, "tt.mulhiui": 4, "arith.mulhiui": 4, "arith.fptosi": 6, "arith.fptoui": 6}
INT_PIPE_SLOTS = {"arith.xori": 2, "arith.andi": 2, "arith.ori": 2, "arith.shli": 2, "arith.shrui": 2,
                  "arith.shrsi": 2}
EITHER_SLOTS = {"arith.addi": 2, "arith.subi": 2}
# 64-bit: two halves on the integer pipe for the logic ops and shifts (a 64-bit shift not timed), an IADD3 and an
# IMAD for an add (run 170: 63 a cycle), three IMAD for a multiply (15.4 a cycle). (FMA slots, integer-pipe slots).
INT64_SLOTS = {"arith.muli": (8, 0), "arith.addi": (2, 2), "arith.subi": (2, 2), "arith.andi": (0, 4),
               "arith.ori": (0, 4), "arith.xori": (0, 4), "arith.shli": (0, 4), "arith.shrui": (0, 4),
               "arith.shrsi": (0, 4)}


def _pipe_slots(op: IROp) -> tuple[int, int, int, int]:
    """(FMA-pipe slots, integer-pipe slots, slots on either pipe, MUFU instructions) an element of ``op``: a division
    or a libdevice function as ptxas expands it (``EXPANDS``, ``LIBDEVICE``), the integer ops by their pipe
    (``FMA_SLOTS``, ``INT_PIPE_SLOTS``, ``EITHER_SLOTS``, ``INT64_SLOTS``), any other op one FMA-pipe slot."""
    if op.name == EXTERN:
        sym = re.search(r'symbol = "(\w+)"', op.full_text)
        alu, mufu = LIBDEVICE.get(sym.group(1) if sym else "", LIBDEVICE_DEFAULT)
        return alu, 0, 0, mufu
    dtype = type_info(op.result_types[0]).dtype if op.result_types else ""
    if dtype == "i1" and op.name in ("arith.andi", "arith.ori"):
        return 0, 0, 0, 0       # masks combined: ptxas folds the and / or into the compare (ISETP's .AND / .OR)
    if op.name in INT64_SLOTS and dtype == "i64":
        return INT64_SLOTS[op.name] + (0, 0)
    if op.name in INT_PIPE_SLOTS or op.name in EITHER_SLOTS:
        return 0, INT_PIPE_SLOTS.get(op.name, 0), EITHER_SLOTS.get(op.name, 0), 0
    if op.name in FMA_SLOTS:
        return FMA_SLOTS[op.name], 0, 0, 0
    alu, mufu = EXPANDS.get(op.name, (1, 0))
    return alu, 0, 0, mufu


def alu_slots(per_element: list[tuple[int, int, int, int]]) -> int:
    """A node's ALU slots an element from its ops' (``_pipe_slots``): the busier pipe, or half of all the work where
    the adds that run on either pipe balance the two.

    Examples
    --------
    >>> alu_slots([(4, 0, 0, 0), (2, 0, 0, 0), (0, 2, 0, 0), (0, 2, 0, 0)])   # mulhi, mul, two xors
    6
    >>> alu_slots([(0, 0, 2, 0)] * 3)                                          # three adds, either pipe
    3
    """
    fma, ipipe, either = (sum(p[i] for p in per_element) for i in range(3))
    return math.ceil(max(fma, ipipe, (fma + ipipe + either) / 2))


KIND_UNIT = {"dot": "tc", "sfu": "sfu", "reduce": "alu", "elementwise": "alu", "convert": "alu", "broadcast": "alu",
             "load": "lsu", "store": "lsu", "tma_load": "tma", "local_load": "lsu", "local_store": "lsu",
             "local_alloc": "lsu", "tmem_load": "lsu", "tmem_store": "lsu", "barrier": "alu"}
# When a node holds several ops, its kind is the first of these it contains.
_PRIORITY = ("dot", "tma_load", "load", "sfu", "reduce", "tmem_load", "tmem_store", "local_load", "local_store",
             "local_alloc", "store", "barrier", "elementwise", "convert", "broadcast")
ASYNC_PRODUCERS = {"dot", "tma_load", "load"}


# Integer tile ops outside the arith dialect that compute indices as arith's do: Philox's rounds (``tl.rand``: each
# round a ``tt.mulhiui`` beside arith.muli / xori; as nodes of their own, flash-attention's dropout in the loop made
# 17 of 35 nodes and no joint schedule in the search's budget) and ALiBi's ``|m - n|`` (``math.absi``).
_INDEX_MATH = frozenset({"tt.mulhiui", "math.absi"})


def _computed_types(op: IROp) -> list[TypeInfo]:
    """The types an op computes on: its results', except a compare's, which is the math of what it compares (an
    offsets' compare is a mask that folds into its load; a node anchored at a compare computes on its operands)."""
    infos = [type_info(t) for t in op.result_types]
    if op.name in ("arith.cmpi", "arith.cmpf") and infos:
        return operand_types(op)[:1]
    return infos


def _category(op: IROp) -> str:
    """Tile-level kind of one IR op, or 'view' / 'scalar' / 'address' for ops that fold."""
    n = op.name
    infos = _computed_types(op)
    first = infos[0] if infos else TypeInfo("scalar", (), "")
    if n == "scf.if":
        return "compound"
    if n in vocab.CONTROL_FLOW or n == "tt.call":
        return "unsupported"
    if n in vocab.DOTS:
        return "dot"
    if n in vocab.TMA_LOADS:
        return "tma_load"
    if n == vocab.POINTER_LOAD:
        return "load"
    if n in vocab.STORES:
        return "store"
    if n == "ttg.local_load":
        return "local_load"
    if n == "ttg.local_store":
        return "local_store"
    if n == "ttg.local_alloc":
        return "local_alloc" if op.operands else "view"
    if n == "ttng.tmem_load":
        return "tmem_load"
    if n in ("ttng.tmem_store", "ttng.tmem_alloc", "ttng.tmem_copy"):
        return "tmem_store" if op.operands else "view"   # tmem_alloc with no source just reserves
    if n == "tt.reduce":
        return "reduce"
    if n in vocab.VIEWS:
        return "view"
    if not op.results or first.space in ("scalar", "token"):
        return "scalar"
    if first.dtype.startswith("!tt.ptr"):
        return "address"            # pointer tensors: address arithmetic of a load or store
    if first.dtype.startswith("i") and first.dtype != "i1" and (n.startswith("arith.") or n in _INDEX_MATH):
        return "address"            # integer index tiles (offsets, masks' inputs)
    if n in vocab.SFU:
        return "sfu"
    if n in vocab.CASTS:
        return "convert"
    if n.startswith("arith.") or n.startswith("math.") or n in vocab.ELEMENTWISE_EXTRA:
        return "elementwise"
    return "elementwise"


@dataclass
class _Body:
    """The loop body being folded: its ops (yield left out), def-use maps, the iter_args and what feeds them."""

    ops: list[IROp]
    yielded: tuple[str, ...]
    iter_args: tuple[str, ...]
    defined_by: dict[str, int] = field(default_factory=dict)
    users: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))

    def __post_init__(self) -> None:
        for i, o in enumerate(self.ops):
            for r in o.results:
                self.defined_by[r] = i
            for v in o.operands:
                self.users[v].append(i)
        self.carried_to = {y: self.iter_args[k] for k, y in enumerate(self.yielded) if k < len(self.iter_args)}
        base = [_category(o) for o in self.ops]
        self.data = _data_values(self, base)
        self.cat = [_refine(o, c, self.data) for o, c in zip(self.ops, base)]

    def consumers(self, i: int, follow_yield: bool) -> list[int]:
        out: list[int] = []
        for r in self.ops[i].results:
            out.extend(self.users.get(r, ()))
            if follow_yield and r in self.carried_to:
                out.extend(self.users.get(self.carried_to[r], ()))
        return sorted(set(out) - {i})


def build_graph(module: Module, target: Target, loop: LoopSelector = None, kernel: str = "kernel",
                meta: dict | None = None) -> LoopGraph:
    """The dependence graph of one innermost loop of ``module`` (``loop``: an index, ``":LINE"``, or
    None for the default, ``twill.graph.loops.find_loop``; the graph's ``loop_choice`` says which).

    Examples
    --------
    >>> g = build_graph(parse(text), Target("h100", 90))   # doctest: +SKIP
    >>> [o.id for o in g.ops if o.kind == "dot"]           # doctest: +SKIP
    ['dot_qk', 'dot_acc']
    """
    for_op, info, choice = find_loop(module, loop, kernel)
    body = _body(for_op, kernel)
    try:
        return _graph(module, target, for_op, info, choice, body, kernel, meta, toward_loads=False)
    except GraphError as e:
        if "cycle with iteration distance 0" not in str(e):
            raise
    # An index that feeds a load's address and a computation both (FA2's backward: the row index of the causal mask
    # and of the LSE load) folded into the computation makes the load wait for the node that reads what it loads:
    # folded into the load instead; the graphs the first fold makes acyclic stay as they are.
    try:
        return _graph(module, target, for_op, info, choice, body, kernel, meta, toward_loads=True)
    except GraphError as e:
        if "cycle with iteration distance 0" not in str(e):
            raise
    # An index tile two chains read that meet again later (ALiBi's |m - n| from the column index the causal mask also
    # reads, added to the masked scores: flash-attention's AMD forward): moved into the reader the other one waits for.
    return _graph(module, target, for_op, info, choice, body, kernel, meta, toward_loads=False, untangle=True)


def _graph(module: Module, target: Target, for_op: IROp, info: Any, choice: str, body: "_Body", kernel: str,
           meta: dict | None, toward_loads: bool, untangle: bool = False) -> LoopGraph:
    groups, folded_nowhere = _fold(body, toward_loads)
    if untangle:
        groups = _untangle(body, groups)
    node_of = {i: n for n, members in enumerate(groups) for i in members}
    graph_ops = _with_reduce_spread(_nodes(body, groups, node_of), groups, body, aliases(module.text))
    if not graph_ops:
        raise UnsupportedError("the loop does no tile work: every op is address or counter bookkeeping",
                               where=f"{kernel} ({info.where})", expected="a loop that loads, computes or stores tiles",
                               found=", ".join(sorted({o.name for o in body.ops})) or "an empty body",
                               hint="--loop N or --loop :LINE picks another loop (twill graph --loops lists them)")
    deps = _edges(body, groups, node_of, graph_ops)
    deps += _memory_edges(body, memory_deps(body.ops, scope_of(module, for_op)), node_of, graph_ops, deps)
    # Streaming: a variable-latency load that no in-loop tile value (nor an earlier store) feeds.
    fed = {d.dst for d in deps}
    graph_ops = [o if not o.variable_latency else dataclasses.replace(o, streaming=o.id not in fed) for o in graph_ops]
    m = {"kernel": kernel, "loop_index": info.index, "arch": target.arch, "sm": target.sm,
         "num_warps": module.num_warps, "loop_line": for_op.loc.line, "loop_file": for_op.loc.file,
         "loop_choice": choice, "loops": len(module.loops()),
         "triton_version": triton_version(), "ttgir_sha256": sha256(module.text),
         "bookkeeping": [body.ops[i].name for i in sorted(folded_nowhere)]}
    if for_op.loc.inlined():     # the loop of an inlined helper: the hint names its own line, not the call's alone
        m["loop_where"] = for_op.loc.text()
    if "tt.warp_specialize" in for_op.attrs:
        m["triton_warp_specialize"] = True   # tl.range(..., warp_specialize=True): twill's schedule replaces it
    m.update(meta or {})
    graph = LoopGraph(name=kernel, ops=tuple(graph_ops), deps=tuple(deps), meta=tuple(sorted(m.items())))
    check_no_zero_distance_cycle(graph)
    return graph


def _dot_shape(a: tuple[int, ...], b: tuple[int, ...]) -> dict[str, object]:
    """A dot's ``m``, ``n``, ``k`` for the cost model and whether it issues asynchronously. A 3-D (batched) ``tl.dot``
    of ``[B, M, K] x [B, K, N]`` does B products of M x N x K, costed as one of ``B*M`` rows (``batch`` records B);
    Triton lowers it to synchronous mma.sync, never to wgmma (lucidrains' NSA forward, session 91: its 64 batches of
    16 x 64 x 64 had been costed as one 64 x 64 x 16 wgmma, 64 times too cheap).

    >>> _dot_shape((128, 64), (64, 256))
    {'m': 128, 'n': 256, 'k': 64, 'async': True}
    >>> _dot_shape((64, 16, 64), (64, 64, 64))
    {'m': 1024, 'n': 64, 'k': 64, 'async': False, 'batch': 64}
    """
    if len(a) >= 3:
        batch = math.prod(a[:-2])
        return {"m": batch * a[-2], "n": b[-1], "k": a[-1], "async": False, "batch": batch}
    m_, k_ = (tuple(a) + (0, 0))[:2]
    return {"m": m_, "n": b[1] if len(b) > 1 else 0, "k": k_, "async": True}


def _with_reduce_spread(graph_ops: list[Op], groups: list[list[int]], b: "_Body", table: dict[str, str]) -> list[Op]:
    """Each reduction node with how its input spreads along the reduced axis (``twill.ir.layouts``): the elements a
    thread combines, the lanes it shuffles across, the warps it exchanges between, the results a thread keeps and the
    results of the whole tile, which the cost model prices where the machine file switches it on
    (``twill.machine.cost._reduce_latency``). A layout not read: unchanged."""
    out = []
    for members, op in zip(groups, graph_ops):
        red = next((b.ops[i] for i in members if b.ops[i].name == "tt.reduce"), None) if op.kind == "reduce" else None
        axis = dict(op.attrs).get("axis")
        types = operand_type_texts(red) if red is not None else []
        spread = axis_spread(types[0], int(axis), table) if types and isinstance(axis, int) else None
        if spread is None:
            out.append(op)
            continue
        results = math.prod(n for d, n in enumerate(type_info(types[0]).shape) if d != axis)
        extra = {"reduce_thread": spread.thread, "reduce_lanes": spread.lanes, "reduce_warps": spread.warps,
                 "reduce_outputs": spread.outputs, "reduce_results": results, "reduce_cta_warps": spread.cta_warps,
                 "reduce_layout": spread.kind}
        out.append(dataclasses.replace(op, attrs=tuple(sorted({**dict(op.attrs), **extra}.items()))))
    return out


def _body(for_op: IROp, kernel: str) -> _Body:
    assert for_op.body is not None
    ops = [o for o in for_op.body.ops if o.name != vocab.YIELD]
    yield_op = next((o for o in for_op.body.ops if o.name == vocab.YIELD), None)
    for o in ops:
        if _category(o) == "unsupported" or o.name == vocab.LOOP:
            why = " (a helper that stays a call: drop its noinline=True so it is inlined)" if o.name == "tt.call" else ""
            raise UnsupportedError(f"{o.name} inside the loop body is not supported{why}", where=_where(kernel, o),
                                   expected="a straight-line loop body (an scf.if without TMA loads or loops)",
                                   found=o.name)
        if o.name == "scf.if":
            bad = next((n for n in nested_ops(o) if n.name in vocab.TMA_LOADS | (vocab.CONTROL_FLOW - {"scf.if"})
                        or n.name == vocab.LOOP), None)
            if bad is not None:
                raise UnsupportedError(f"scf.if holding {bad.name} inside the loop body is not supported "
                                       "(Triton does not pipeline a conditional TMA load or loop)",
                                       where=_where(kernel, o),
                                       expected="an scf.if that computes, stores, loads through pointers or runs "
                                       "dots", found=f"{bad.name} at {_where(kernel, bad)}")
    return _Body(ops, yield_op.operands if yield_op else (), for_op.body.args[1:])


def _dot_flops(dot: IROp) -> int:
    """2 M N K of a dot: M x N its accumulator (a register tile, or tensor memory for Blackwell's MMA, which returns
    a token), K its A operand's last dimension."""
    types = operand_types(dot)
    res = type_info(dot.result_types[0]) if dot.result_types else None
    out = res.shape if res is not None and len(res.shape) >= 2 else types[min(2, len(types) - 1)].shape
    a = types[0].shape
    return 2 * out[-2] * out[-1] * a[-1] * (out[0] if len(out) == 3 else 1)


def _stored(a: IROp, attrs: dict[str, object]) -> TypeInfo | None:
    """A store node's tile: its store's, or for an scf.if that stores, the first store's inside it, ``attrs["bytes"]``
    then every store's and atomic's in it (lmdeploy's EP scatter: an atomic's slot, then a 7 KB fp8 row, its scales
    and its index, costed as the 4-byte index store alone before session 88)."""
    stores = [n for n in [a] + nested_ops(a) if n.name in vocab.STORES]
    if a.name == "scf.if" and len(stores) > 1:
        attrs["bytes"] = sum(t.bytes for n in stores if (t := stored_type(n)) is not None)
    return stored_type(stores[0]) if stores else None


def _scan_slots(sc: IROp) -> list[tuple[int, int, int, int]]:
    """A ``tt.scan``'s pipe slots an element: its combiner's ops about twice (up the tree and back down, as Triton
    lowers it); one FMA slot an op where its region is not parsed."""
    combine = nested_ops(sc) or []
    slots = [_pipe_slots(n) for n in combine if n.name.startswith(("arith.", "math."))] or \
        [(1, 0, 0, 0)] * max(1, len(re.findall(r"= (?:arith|math)\.\w+", sc.full_text)))
    return slots * 2


def histogram_slots(op: IROp, elements: int) -> list[tuple[int, int, int, int]]:
    """A ``tt.histogram``'s integer-pipe slots an element of its node (``elements``), as Triton lowers it (a warp's
    histogram by @apgoucher's algorithm): for each value a thread holds, a test, a compare and a ballot a bit of the
    bin index, then for each of the bins the lane owns (bins / 32) the ballots of the bits below the lane's five
    combined (an XOR and AND each, one LOP3), a popcount and an add; its values' work spread over the node's elements
    (session 93's sweep: x-attention's 4096 values into 2048 bins had cost 2 slots an element of its [2048] result;
    545 instructions a value here, 2180 slots an element)."""
    src, out = operand_types(op), op.result_types
    if not src or not out:
        return [(0, 2, 0, 0)]
    values, bins = src[0].elements, type_info(out[0]).elements
    bits = max(1, math.ceil(math.log2(max(bins, 2))))
    per_value = 3 * bits + math.ceil(bins / 32) * (max(bits - 5, 0) + 2)
    return [(0, 2 * math.ceil(per_value * values / max(elements, 1)), 0, 0)]


def _guarded_reads(op: IROp) -> list[IROp]:
    """The ops in scf.if ``op`` whose results come back from memory before what reads them: its pointer loads, and
    the atomics whose old value it reads (an atomic counter's slot the rows after it are stored at)."""
    inner = nested_ops(op)
    read = {v for n in inner for v in n.operands}
    return [n for n in inner if n.name == vocab.POINTER_LOAD
            or (n.name in ("tt.atomic_rmw", "tt.atomic_cas") and any(r in read for r in n.results))]


def nested_ops(op: IROp) -> list[IROp]:
    """Every op in ``op``'s parsed regions, at any depth (``IROp.nested``)."""
    return op.nested()


# Kinds whose results are tile data (the seeds of ``_data_values``).
_TILE_KINDS = frozenset(KIND_UNIT)


def _data_values(b: _Body, base: list[str]) -> set[str]:
    """The values tile data reaches: results of tile-level ops, and of any op (a view, a scalar op, an
    address computation, an scf.if) that reads such a value, through iter_args too."""
    data: set[str] = set()
    changed = True
    while changed:
        changed = False
        for i, o in enumerate(b.ops):
            if all(r in data for r in o.results):
                continue
            if base[i] == "compound":
                new = _if_results_data(o, data) - data
                if new:
                    data |= new
                    changed = True
            elif base[i] in _TILE_KINDS or any(v in data for v in o.operands):
                data.update(o.results)
                changed = True
        for y, arg in b.carried_to.items():
            if y in data and arg not in data:
                data.add(arg)
                changed = True
    return data


def _if_results_data(op: IROp, data: set[str]) -> set[str]:
    """The results of an ``scf.if`` that tile data reaches: result k when some branch yields data as
    its operand k (a tile op inside, or a value read from outside that is data)."""
    inner = set(data)
    for n in nested_ops(op):
        if n.name == "scf.if":
            inner |= _if_results_data(n, inner)
        elif _category(n) in _TILE_KINDS or any(v in inner for v in n.operands):
            inner.update(n.results)
    out: set[str] = set()
    for block in op.regions:
        y = next((n for n in block.ops if n.name == vocab.YIELD), None)
        for k, v in enumerate(y.operands if y else ()):
            if v in inner and k < len(op.results):
                out.add(op.results[k])
    return out


def _refine(op: IROp, base: str, data: set[str]) -> str:
    """The category of an op given which values are data: a scalar op on data computes (elementwise,
    special-function or a cast), an scf.if is a store, elementwise or bookkeeping by what it holds, a
    barrier orders memory."""
    if op.name in vocab.BARRIERS:
        return "barrier"
    touches = any(r in data for r in op.results)
    if base == "compound":
        if any(n.name in vocab.STORES for n in nested_ops(op)):
            return "store"
        return "elementwise" if touches else "scalar"
    if base != "scalar" or not touches:
        return base
    if op.name in vocab.VIEWS:
        return "view"
    return "sfu" if op.name in vocab.SFU else "convert" if op.name in vocab.CASTS else "elementwise"


def _fold(b: _Body, toward_loads: bool = False) -> tuple[list[list[int]], list[int]]:
    """The body's ops grouped into nodes (ordered by their first op), and the ops that fold nowhere. ``toward_loads``:
    an address or scalar op read by several ops folds into the first that computes an address (and so joins a load),
    not into the first reader."""
    parent = list(range(len(b.ops)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(a: int, into: int) -> None:
        ra, rb = find(a), find(into)
        if ra != rb:
            parent[ra] = rb

    # 1. A local_alloc of a loaded tile joins the load.
    for i, o in enumerate(b.ops):
        if b.cat[i] == "local_alloc" and o.operands and b.defined_by.get(o.operands[0]) is not None:
            src = b.defined_by[o.operands[0]]
            if b.cat[src] in ("tma_load", "load"):
                union(i, src)
    # 1b. An FMA dot's operand loaded from a buffer made before the loop (``twill.ir.ttgir.sink_fma_operands``) joins
    #     its one reader: loaded a stage ahead, its 512 registers a thread (FLA's cumsum) would be carried a stage.
    for i, o in enumerate(b.ops):
        if b.cat[i] == "local_load" and o.operands and b.defined_by.get(o.operands[0]) is None \
                and o.result_types and "parent = #blocked" in o.result_types[0]:
            cons = b.consumers(i, follow_yield=False)
            if len(cons) == 1 and b.cat[cons[0]] == "dot":
                union(i, cons[0])
    # 2. Single-consumer elementwise chains and casts join their consumer.
    for i in range(len(b.ops)):
        if b.cat[i] not in ("elementwise", "convert"):
            continue
        cons = b.consumers(i, follow_yield=False)
        carried = any(r in b.carried_to for r in b.ops[i].results)
        if len(cons) == 1 and not carried and _joins(b, i, cons[0]):
            union(i, cons[0])
    # 3. Views, address arithmetic and scalars fold into their first consumer (backwards, so chains
    #    of them reach a real node); those with none stay as bookkeeping of the loop.
    #    A view of a buffer the loop loads (a transposed K tile) joins the load instead: it aliases the
    #    buffer, and folding it into one reader would order that reader before every other.
    #    A tile's view never folds into the next iteration's reader: its source would come after that
    #    reader in one iteration (a cycle of distance 0).
    folded_nowhere: list[int] = []
    for i in reversed(range(len(b.ops))):
        if b.cat[i] in ("view", "address", "scalar"):
            src = b.defined_by.get(b.ops[i].operands[0]) if b.ops[i].operands else None
            if b.ops[i].name in vocab.SMEM_VIEWS and src is not None and b.cat[find(src)] in ("tma_load", "load"):
                union(i, src)
                continue
            here = b.consumers(i, follow_yield=False)
            cons = [j for j in b.consumers(i, follow_yield=True) if j != i]
            if set(b.ops[i].results) & b.data and (here or src is not None):
                # A tile's view: its first reader in this iteration, else (read only by the next iteration or
                # after the loop: tl.sort's last reshape, a carried tl.trans) the node computing its source.
                union(i, here[0] if here else src)
            elif cons:
                first = cons[0]
                if toward_loads and b.cat[i] in ("address", "scalar"):
                    first = next((j for j in here if b.cat[find(j)] in ("load", "tma_load")), first)
                union(i, first)
            elif (not any(r in b.carried_to for r in b.ops[i].results)
                  or any("!tt.ptr" in t for t in b.ops[i].result_types)):
                folded_nowhere.append(i)
            # else: a value the loop carries out that nothing inside reads (an argmax's running index, i32
            # arithmetic like an address's): a node of its own, or the code after the loop would lose it (a
            # pointer advanced past the last load stays bookkeeping)
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(b.ops)):
        if i not in folded_nowhere:
            groups[find(i)].append(i)
    return sorted(groups.values(), key=lambda g: min(g)), folded_nowhere


def _untangle(b: _Body, groups: list[list[int]]) -> list[list[int]]:
    """``groups`` with the zero-distance cycles that index tiles close broken: an index value (a tensor no tile data
    reaches: a column index, ``|m - n|``) that a node computes and another node reads makes an edge (``_shared_tile``);
    where that other node reaches the first again (ALiBi's bias computed from the column index the causal mask's
    node folded in, then added into that node's scores), the index value and the index ops of its node it is computed
    from move into the reader's node, which the first waits for anyway."""
    import networkx as nx

    groups = [list(g) for g in groups]
    for _ in range(len(b.ops)):
        node_of = {i: n for n, members in enumerate(groups) for i in members}
        loads = {n for n, members in enumerate(groups) if any(b.cat[i] in ("load", "tma_load") for i in members)}
        via: dict[tuple[int, int], set[int]] = defaultdict(set)
        for n, members in enumerate(groups):
            for i in members:
                for v in b.ops[i].operands:
                    j = b.defined_by.get(v)
                    if j is None or j not in node_of or node_of[j] == n:
                        continue
                    tile = b.ops[j].result_types[:1] and b.ops[j].result_types[0].startswith("tensor<")
                    if v in b.data or (tile and node_of[j] not in loads):
                        via[(node_of[j], n)].add(j)
        try:
            cycle = nx.find_cycle(nx.DiGraph(list(via)))
        except nx.NetworkXNoCycle:
            return groups
        edge = next(((s, d) for s, d in cycle if any(not set(b.ops[j].results) & b.data for j in via[(s, d)])), None)
        if edge is None:
            split = _split_data_ops(b, groups, cycle, via) or _fold_masks(b, groups, cycle)
            if split is None:
                return groups
            groups = split
            continue
        src, dst = edge
        move = _index_slice(b, groups[src], [j for j in via[edge] if not set(b.ops[j].results) & b.data])
        groups[src] = [i for i in groups[src] if i not in move]
        groups[dst] = sorted(groups[dst] + sorted(move))
        groups = sorted((g for g in groups if g), key=min)
    return groups


def _split_data_ops(b: _Body, groups: list[list[int]], cycle: list, via: dict) -> list[list[int]] | None:
    """``groups`` with a zero-distance cycle through integer arithmetic on loaded data broken, or None: such ops
    (``address`` by their category: ``(v & 0xF).to(tl.int8) - 8`` on a loaded byte tile) fold into their first reader's
    node; where another reader's node (a ``sitofp`` of the same value: a cast folds into no elementwise node) feeds the
    first's again, the ops the cycle's edge carries and those of their node they are computed from (integer data ops
    alone) become a node of their own (session 91: a nibble's sign compared and converted, refused as a cycle)."""
    for s, _ in cycle:
        roots = [j for j in via[(s, _)] if b.cat[j] in ("address", "scalar")]
        if not roots:
            continue
        inside, move, todo = set(groups[s]), set(), list(roots)
        while todo:
            i = todo.pop()
            if i in move or i not in inside or b.cat[i] not in ("address", "scalar"):
                continue
            move.add(i)
            todo.extend(b.defined_by[v] for v in b.ops[i].operands if v in b.defined_by)
        if move and move != inside:
            rest = [[i for i in g if i not in move] if n == s else g for n, g in enumerate(groups)]
            return sorted([g for g in rest if g] + [sorted(move)], key=min)
    return None


def _fold_masks(b: _Body, groups: list[list[int]], cycle: list) -> list[list[int]] | None:
    """``groups`` with a zero-distance cycle through one load's mask folded into that load's node, or None: every
    other node of the cycle is mask arithmetic (i1 tiles, addresses, views) on what the load's node computed from
    loaded data (XunhaoLai's NSA: K read through a block pointer advanced by a loaded block index, its boundary
    check's compares and ``&`` of that offset feeding the load's mask back; session 92, refused as a cycle)."""
    nodes = [s for s, _ in cycle]
    loads = [n for n in nodes if any(b.cat[i] in ("load", "tma_load") for i in groups[n])]
    if len(loads) != 1:
        return None
    def mask(i: int) -> bool:
        types = b.ops[i].result_types
        return b.cat[i] in ("view", "address", "scalar") or bool(types) and all("xi1," in t or t == "i1"
                                                                                 for t in types)
    rest = [n for n in nodes if n != loads[0]]
    if not rest or not all(mask(i) for n in rest for i in groups[n]):
        return None
    merged = sorted(groups[loads[0]] + [i for n in rest for i in groups[n]])
    out = [merged if n == loads[0] else g for n, g in enumerate(groups) if n not in rest]
    return sorted(out, key=min)


def _index_slice(b: _Body, members: list[int], roots: list[int]) -> set[int]:
    """``roots`` and the ops of ``members`` they are computed from that no tile data reaches."""
    inside, out, todo = set(members), set(), list(roots)
    while todo:
        i = todo.pop()
        if i in out or i not in inside or set(b.ops[i].results) & b.data:
            continue
        out.add(i)
        todo.extend(b.defined_by[v] for v in b.ops[i].operands if v in b.defined_by)
    return out


def _buffer_of(ops: list[IROp], members: list[int], i: int) -> int | None:
    """The member of a node that allocates the buffer view ``ops[i]`` aliases (following views), if any."""
    defined = {r: j for j in members for r in ops[j].results}
    j = i
    while ops[j].name in vocab.VIEWS and ops[j].operands and ops[j].operands[0] in defined:
        j = defined[ops[j].operands[0]]
    return j if j != i and ops[j].name not in vocab.VIEWS else None


def _joins(b: _Body, i: int, j: int) -> bool:
    """Whether elementwise/cast op i folds into its only consumer j: same shape, and elementwise into
    elementwise or special-function math, or a cast into a cast."""
    same_shape = [type_info(t).shape for t in b.ops[i].result_types[:1]] == \
                 [type_info(t).shape for t in b.ops[j].result_types[:1]]
    return same_shape and (b.cat[j] in ("elementwise", "sfu") and b.cat[i] == "elementwise"
                           or b.cat[j] == "convert" and b.cat[i] == "convert")


def _nodes(b: _Body, groups: list[list[int]], node_of: dict[int, int]) -> list[Op]:
    graph_ops: list[Op] = []
    used_ids: set[str] = set()
    ordinals: dict[str, int] = defaultdict(int)
    for members in groups:
        real = [b.cat[i] for i in members if b.cat[i] not in ("view", "address", "scalar")]
        kind = next((k for k in _PRIORITY if k in real), "broadcast")
        if kind == "local_alloc":
            kind = "local_store"
        anchor = next((i for i in members if b.cat[i] == kind or (kind == "local_store" and b.cat[i] == "local_alloc")),
                      members[-1])
        graph_ops.append(_make_op(b.ops, members, anchor, kind, f"{kind}{ordinals[kind]}", used_ids, node_of, b.users,
                                  b.carried_to))
        ordinals[kind] += 1
    return graph_ops


def _edges(b: _Body, groups: list[list[int]], node_of: dict[int, int], graph_ops: list[Op]) -> list[Dep]:
    """Edges between nodes: SSA uses (distance 0) and uses of iter_args fed by a yield (distance 1)."""
    deps: dict[tuple[str, str, int], Dep] = {}
    for n, members in enumerate(groups):
        for i in members:
            for v in b.ops[i].operands:
                src_node, distance = None, 0
                if v in b.defined_by and b.defined_by[v] in node_of:
                    src_node = node_of[b.defined_by[v]]
                elif v in b.iter_args:
                    k = b.iter_args.index(v)
                    y = b.yielded[k] if k < len(b.yielded) else None
                    if y is not None and y in b.defined_by and b.defined_by[y] in node_of:
                        src_node, distance, v = node_of[b.defined_by[y]], 1, y
                if src_node is None or (src_node == n and distance == 0):
                    continue
                src, dst = graph_ops[src_node], graph_ops[n]
                if v not in b.data and not _shared_tile(b, v, distance, src):
                    for m, u in _behind_address(b, v, distance, src_node, node_of, graph_ops):
                        if m != n and (graph_ops[m].id, dst.id, 0) not in deps:
                            deps[(graph_ops[m].id, dst.id, 0)] = Dep(src=graph_ops[m].id, dst=dst.id, value=u)
                    continue   # bookkeeping (address increments, counters) makes no tile-level edge
                blocking = src.kind in ASYNC_PRODUCERS and not (src.kind == "dot" and dst.kind == "dot")
                key = (src.id, dst.id, distance)
                if key not in deps:
                    deps[key] = Dep(src=src.id, dst=dst.id, distance=distance, blocking=blocking, value=v)
    return list(deps.values())


def _behind_address(b: _Body, v: str, distance: int, node: int, node_of: dict[int, int],
                    graph_ops: list[Op]) -> set[tuple[int, str]]:
    """The compute nodes whose tiles a load's address arithmetic ``v`` (of load node ``node``, read by another
    node in the same iteration) is computed from, with the value: the reader computes that arithmetic too, so it
    waits for them as the load does (xFormers' padded RoPE: the imaginary half's columns ``cols + dim // 2``, folded
    into the real half's load, from the column tile the frequencies' node computes; the imaginary load had been
    scheduled before that node)."""
    if distance != 0 or graph_ops[node].kind not in ("load", "tma_load"):
        return set()
    out: set[tuple[int, str]] = set()
    seen: set[str] = set()
    todo = [v]
    while todo:
        w = todo.pop()
        j = b.defined_by.get(w)
        if w in seen or j is None or j not in node_of:
            continue
        seen.add(w)
        if node_of[j] != node:
            if _shared_tile(b, w, 0, graph_ops[node_of[j]]):
                out.add((node_of[j], w))
            continue
        todo += list(b.ops[j].operands)
    return out


def _shared_tile(b: _Body, v: str, distance: int, src: Op) -> bool:
    """Whether bookkeeping value ``v`` still orders its reader: a tile (not a scalar: the Gluon planner moves
    scalar arithmetic before its earliest reader) computed in a compute node and read in the same iteration by
    another node (a random number's Philox rounds, ``tl.rand(seed, offsets)``, spread over several elementwise
    nodes, none of which tile data reaches). A load's address arithmetic travels with the load it addresses."""
    j = b.defined_by.get(v)
    return (distance == 0 and src.kind not in ("load", "tma_load") and j is not None
            and any(t.startswith("tensor<") for t in b.ops[j].result_types[:1]))


def _memory_edges(b: _Body, mem: list, node_of: dict[int, int], graph_ops: list[Op], deps: list[Dep]) -> list[Dep]:
    """Edges between nodes for the body's memory dependences, where no SSA edge orders them already."""
    have = {(d.src, d.dst, d.distance) for d in deps}
    out: list[Dep] = []
    for m in mem:
        s, d = node_of.get(m.src), node_of.get(m.dst)
        if s is None or d is None or s == d:
            continue
        src, dst = graph_ops[s], graph_ops[d]
        if (src.id, dst.id, m.distance) in have:
            continue
        have.add((src.id, dst.id, m.distance))
        blocking = src.kind in ASYNC_PRODUCERS and dst.kind != "dot"
        out.append(Dep(src=src.id, dst=dst.id, distance=m.distance, blocking=blocking,
                       value=f"{MEMORY}{m.root or '(unknown buffer)'}"))
    return out


def _where(kernel: str, op: IROp) -> str:
    loc = f"{op.loc.file}:{op.loc.line}" if op.loc.file else f"line {op.loc.line}" if op.loc.line else None
    return f"{kernel} ({loc})" if loc else kernel


def _footprint(ops: list[IROp], members: list[int], node_of: dict[int, int], users: dict[str, list[int]],
               carried_to: dict[str, str]) -> tuple[int, int, int]:
    """Bytes in registers, shared and tensor memory of the results that live beyond the node (used by
    another node or carried)."""
    regs = smem = tmem = 0
    counted: set[int] = set()
    for i in members:
        o = ops[i]
        for r, t in zip(o.results, o.result_types):
            escapes = any(node_of.get(u) != node_of[i] for u in users.get(r, ())) or r in carried_to
            if not escapes:
                continue
            ti = type_info(t)
            if o.name in vocab.VIEWS and ti.space in ("smem", "tmem"):
                # a view of a buffer aliases it: the buffer's owner counts it, this node when it owns it
                # and only the view leaves it (a loaded tile read through its transpose)
                buf = _buffer_of(ops, members, i)
                if buf is None or buf in counted:
                    continue
                counted.add(buf)
            elif ti.space in ("smem", "tmem"):
                counted.add(i)
            if ti.space == "regs" and not ti.dtype.startswith("!tt.ptr"):
                regs += ti.bytes
            elif ti.space == "smem":
                smem += ti.bytes
            elif ti.space == "tmem":
                tmem += ti.bytes
    return regs, smem, tmem


def _make_op(ops: list[IROp], members: list[int], anchor: int, kind: str, prefix: str, used_ids: set[str],
             node_of: dict[int, int], users: dict[str, list[int]], carried_to: dict[str, str]) -> Op:
    a = ops[anchor]
    name = (a.loc.name or "").strip() or None
    base = f"{prefix}_{name}" if name else prefix
    base = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in base)
    ident, k = base, 2
    while ident in used_ids:
        ident, k = f"{base}{k}", k + 1
    used_ids.add(ident)

    infos = _computed_types(a)
    main = infos[0] if infos else TypeInfo("scalar", (), "")
    attrs: dict[str, object] = {}
    if kind == "dot":
        opt = operand_types(a)
        if a.name.startswith("ttng.tc_gen5_mma") and len(opt) >= 2:
            A, B = opt[0], opt[1]
            main = TypeInfo("tmem", (A.shape[0], B.shape[1]), opt[2].dtype if len(opt) > 2 else "f32")
        else:
            A = opt[0] if opt else main
            B = opt[1] if len(opt) > 1 else main
        attrs.update(_dot_shape(A.shape, B.shape), a_dtype=A.dtype)
    elif kind in ("store",):
        main = _stored(a, attrs) or main
    elif kind == "tmem_store":
        opt = operand_types(a)
        if opt:
            main = TypeInfo("tmem", opt[0].shape, opt[0].dtype)
    elif kind == "sfu":
        attrs["fn"] = a.name.split(".")[-1]
    elif kind == "reduce":
        comb = re.findall(r"arith\.(\w+)", a.full_text)
        attrs["fn"] = {"maxnumf": "max", "maximumf": "max", "addf": "sum", "minnumf": "min", "minimumf": "min",
                       "addi": "sum", "maxsi": "max"}.get(comb[0], comb[0]) if comb else "?"
        src = operand_types(a)
        if src:
            attrs["input_elements"] = src[0].elements
        axis = a.attrs.get("axis", "").split(":")[0].strip()
        if axis.lstrip("-").isdigit():
            attrs["axis"] = int(axis)
    if kind in ("tma_load", "load"):
        attrs["bytes"] = main.bytes
    attrs["elements"] = main.elements
    attrs.setdefault("bytes", main.bytes)
    per_element = [_pipe_slots(ops[i]) for i in members
                   if ops[i].name.startswith(("arith.", "math.", EXTERN, "tt.mulhiui"))
                   and ops[i].result_types and type_info(ops[i].result_types[0]).space == "regs"]
    scans = [ops[i] for i in members if ops[i].name == "tt.scan"]
    per_element += [slot for sc in scans for slot in _scan_slots(sc)]
    per_element += [slot for i in members if ops[i].name == "tt.histogram"
                    for slot in histogram_slots(ops[i], main.elements)]
    if scans:               # ... and exchanges across lanes and warps as a reduction does (cost: its overhead)
        attrs["scan"] = len(scans)
    attrs["nops"] = alu_slots(per_element)
    if any(p[3] for p in per_element):
        attrs["mufu"] = sum(p[3] for p in per_element)
    guarded = [n for i in members if ops[i].name == "scf.if" for n in _guarded_reads(ops[i])]
    if guarded:     # an scf.if that loads: the bytes its loads read, which the node waits for (cost: memory latency)
        attrs["guarded_load_bytes"] = sum(type_info(n.result_types[0]).bytes for n in guarded if n.result_types)
    dots = [n for i in members if ops[i].name == "scf.if" for n in nested_ops(ops[i]) if n.name in vocab.DOTS]
    if dots:        # an scf.if that runs dots (a block-sparse kernel's skipped blocks): their tensor-core work
        attrs["guarded_dot_flops"] = sum(_dot_flops(n) for n in dots)
        attrs["a_dtype"] = operand_types(dots[0])[0].dtype
    regs, smem, tmem = _footprint(ops, members, node_of, users, carried_to)
    if kind in ("dot", "tmem_store") and main.space == "tmem":
        tmem = max(tmem, main.bytes)   # the accumulator / stored tile lives in tensor memory
    lines = sorted({ops[i].loc.line for i in members if ops[i].loc.line is not None})
    return Op(id=ident, kind=kind, unit=KIND_UNIT[kind],
              ops=tuple([a.name] + [ops[i].name for i in members if i != anchor]),
              ir=tuple(ops[i].text for i in sorted(members)), line=a.loc.line or (lines[0] if lines else None),
              file=a.loc.file, shape=main.shape, dtype=main.dtype,
              variable_latency=kind in ("tma_load", "load"), streaming=False,
              regs=regs, smem=smem, tmem=tmem, attrs=tuple(sorted(attrs.items())))
