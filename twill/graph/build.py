"""Build a loop's dependence graph (tile-level ops, paper section 3.1) from parsed TTGIR.

Folding rules (each IR op lands in exactly one node, listed in the node's ``ops`` / ``ir``):
- view ops (expand_dims, broadcast, memdesc_trans, reshape, ...), address arithmetic (pointer
  tensors, index ranges) and scalar bookkeeping fold into the node of their first in-loop consumer
  (a scalar carried through ``scf.yield`` serves the next iteration's consumers of that iter_arg);
- a ``ttg.local_alloc`` of a just-loaded tile folds into the load (the tile lands in shared memory);
- an elementwise op or cast whose only consumer is elementwise / special-function (or a cast) of the
  same shape folds into that consumer, so ``exp2(qk * scale - m)`` is one special-function node.
Edges carry the SSA value; values carried through ``iter_args`` give distance-1 edges (``scf.yield``
operand k feeds iter_arg k). Scalar and address values (pointer tensors, integer index tiles) make no
edges: their recurrences (an address increment) cost nothing at tile granularity.

Node ids: ``<kind><ordinal>`` with the ordinal counted per kind in program order, then ``_<name>``
when the defining op's location carries a source variable name (``tma_load0_k``, ``dot0_qk``,
``reduce1_l_ij``); the same input always gives the same ids.
"""
from __future__ import annotations

import hashlib
from collections import defaultdict

from twill.errors import InputError, UnsupportedError
from twill.graph.analysis import check_no_zero_distance_cycle
from twill.graph.model import Dep, LoopGraph, Op
from twill.ir.ttgir import IROp, Module, TypeInfo, type_info

ARCH_SM = {"h100": 90, "h200": 90, "b200": 100}

_DOTS = {"ttng.warp_group_dot", "tt.dot", "ttng.tc_gen5_mma", "tt.dot_scaled", "ttng.tc_gen5_mma_scaled"}
_TMA = {"tt.descriptor_load", "ttng.async_tma_copy_global_to_local", "tt.descriptor_gather"}
_STORES = {"tt.store", "tt.descriptor_store", "tt.atomic_rmw", "tt.atomic_cas", "ttng.async_tma_copy_local_to_global",
           "tt.descriptor_reduce", "tt.descriptor_scatter"}
_VIEWS = {"tt.expand_dims", "tt.broadcast", "tt.reshape", "tt.trans", "ttg.memdesc_trans", "ttg.memdesc_subview",
          "ttg.memdesc_index", "ttg.memdesc_reshape", "tt.splat", "tt.make_range", "tt.addptr", "arith.constant",
          "ttg.memdesc_subslice", "tt.join", "tt.split", "ttng.warp_group_dot_wait"}
_CASTS = {"arith.truncf", "arith.extf", "arith.fptosi", "arith.sitofp", "arith.fptoui", "arith.uitofp",
          "tt.bitcast", "arith.bitcast", "tt.fp_to_fp", "ttg.convert_layout", "arith.extsi", "arith.trunci"}
_SFU_FN = {"math.exp2", "math.exp", "math.log", "math.log2", "math.rsqrt", "math.sqrt", "math.sin", "math.cos",
           "math.tanh", "tt.precise_sqrt", "tt.precise_divf", "math.erf", "math.powf"}
_UNSUPPORTED = {"scf.if", "scf.while", "scf.execute_region", "scf.index_switch"}

KIND_UNIT = {"dot": "tc", "sfu": "sfu", "reduce": "alu", "elementwise": "alu", "convert": "alu", "broadcast": "alu",
             "load": "lsu", "store": "lsu", "tma_load": "tma", "local_load": "lsu", "local_store": "lsu",
             "local_alloc": "lsu", "tmem_load": "lsu", "tmem_store": "lsu"}
# When a node holds several ops, its kind is the first of these it contains.
_PRIORITY = ("dot", "tma_load", "load", "sfu", "reduce", "tmem_load", "tmem_store", "local_load", "local_store",
             "local_alloc", "store", "elementwise", "convert", "broadcast")
ASYNC_PRODUCERS = {"dot", "tma_load", "load"}


def _category(op: IROp) -> str:
    """Tile-level kind of one IR op, or 'view' / 'scalar' / 'address' for ops that fold."""
    n = op.name
    infos = [type_info(t) for t in op.result_types]
    first = infos[0] if infos else TypeInfo("scalar", (), "")
    if n in _UNSUPPORTED:
        return "unsupported"
    if n in _DOTS:
        return "dot"
    if n in _TMA:
        return "tma_load"
    if n == "tt.load":
        return "load"
    if n in _STORES:
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
    if n in _VIEWS:
        return "view"
    if not op.results or first.space in ("scalar", "token"):
        return "scalar"
    if first.dtype.startswith("!tt.ptr"):
        return "address"            # pointer tensors: address arithmetic of a load or store
    if first.dtype.startswith("i") and first.dtype != "i1" and n.startswith("arith."):
        return "address"            # integer index tiles (offsets, masks' inputs)
    if n in _SFU_FN:
        return "sfu"
    if n in _CASTS:
        return "convert"
    if n.startswith("arith.") or n.startswith("math.") or n in ("tt.clampf", "tt.mulhiui", "arith.select"):
        return "elementwise"
    return "elementwise"


def find_loop(module: Module, loop: int | None, where: str) -> IROp:
    loops = module.loops()
    if not loops:
        raise InputError("no loop in kernel", where=where, expected="an scf.for in the kernel body", found="none")
    innermost = [l for l in loops if not any(o.name == "scf.for" for o in (l.body.ops if l.body else []))]
    if loop is not None:
        if not 0 <= loop < len(loops):
            raise InputError("no such loop", where=where, expected=f"--loop 0..{len(loops) - 1}", found=str(loop))
        chosen = loops[loop]
        if chosen not in innermost:
            raise UnsupportedError("loop is not innermost (nested loops are not pipelined)",
                                   where=_where(where, chosen), expected="an innermost scf.for",
                                   found="a loop containing a loop")
        return chosen
    # Default: the innermost loop with the most tensor-core ops (first in program order on ties).
    return max(innermost, key=lambda l: (sum(o.name in _DOTS for o in l.body.ops), -loops.index(l)))


def build_graph(module: Module, arch: str, loop: int | None = None, kernel: str = "kernel",
                meta: dict | None = None) -> LoopGraph:
    """The dependence graph of one innermost loop of ``module``.

    Examples
    --------
    >>> g = build_graph(parse(text), "h100")          # doctest: +SKIP
    >>> [o.id for o in g.ops if o.kind == "dot"]      # doctest: +SKIP
    ['dot_qk', 'dot_acc']
    """
    if arch not in ARCH_SM:
        raise InputError("unknown arch", expected=" | ".join(ARCH_SM), found=arch)
    for_op = find_loop(module, loop, kernel)
    body = for_op.body
    assert body is not None
    ops = [o for o in body.ops if o.name != "scf.yield"]
    yield_op = next((o for o in body.ops if o.name == "scf.yield"), None)
    yielded = yield_op.operands if yield_op else ()
    iter_args = body.args[1:]
    for o in ops:
        if _category(o) == "unsupported" or o.name == "scf.for":
            raise UnsupportedError(f"{o.name} inside the loop body is not supported", where=_where(kernel, o),
                                   expected="a straight-line loop body", found=o.name)

    defined_by: dict[str, int] = {}
    for i, o in enumerate(ops):
        for r in o.results:
            defined_by[r] = i
    users: dict[str, list[int]] = defaultdict(list)
    for i, o in enumerate(ops):
        for v in o.operands:
            users[v].append(i)
    carried_to = {y: iter_args[k] for k, y in enumerate(yielded) if k < len(iter_args)}

    cat = [_category(o) for o in ops]
    parent = list(range(len(ops)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(a: int, into: int) -> None:
        ra, rb = find(a), find(into)
        if ra != rb:
            parent[ra] = rb

    def consumers(i: int, follow_yield: bool) -> list[int]:
        out: list[int] = []
        for r in ops[i].results:
            out.extend(users.get(r, ()))
            if follow_yield and r in carried_to:
                out.extend(users.get(carried_to[r], ()))
        return sorted(set(out) - {i})

    # 1. A local_alloc of a loaded tile joins the load.
    for i, o in enumerate(ops):
        if cat[i] == "local_alloc" and o.operands and defined_by.get(o.operands[0]) is not None:
            src = defined_by[o.operands[0]]
            if cat[src] in ("tma_load", "load"):
                union(i, src)
    # 2. Single-consumer elementwise chains and casts join their consumer.
    for i in range(len(ops)):
        if cat[i] not in ("elementwise", "convert"):
            continue
        cons = consumers(i, follow_yield=False)
        carried = any(r in carried_to for r in ops[i].results)
        if len(cons) == 1 and not carried:
            j = cons[0]
            same_shape = [type_info(t).shape for t in ops[i].result_types[:1]] == \
                         [type_info(t).shape for t in ops[j].result_types[:1]]
            if same_shape and (cat[j] in ("elementwise", "sfu") and cat[i] == "elementwise"
                               or cat[j] == "convert" and cat[i] == "convert"):
                union(i, j)
    # 3. Views, address arithmetic and scalars fold into their first consumer (backwards, so chains
    #    of them reach a real node); those with none stay as bookkeeping of the loop.
    folded_nowhere: list[int] = []
    for i in reversed(range(len(ops))):
        if cat[i] in ("view", "address", "scalar"):
            cons = [j for j in consumers(i, follow_yield=True) if j != i]
            if cons:
                union(i, cons[0])
            else:
                folded_nowhere.append(i)
    # Groups (nodes), ordered by their first op in program order.
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(ops)):
        if i in folded_nowhere:
            continue
        groups[find(i)].append(i)
    ordered = sorted(groups.values(), key=lambda g: min(g))
    node_of: dict[int, int] = {}
    for n, members in enumerate(ordered):
        for i in members:
            node_of[i] = n

    graph_ops: list[Op] = []
    used_ids: set[str] = set()
    ordinals: dict[str, int] = defaultdict(int)
    kinds: list[str] = []
    for members in ordered:
        real = [cat[i] for i in members if cat[i] not in ("view", "address", "scalar")]
        kind = next((k for k in _PRIORITY if k in real), "broadcast")
        if kind == "local_alloc":
            kind = "local_store"
        kinds.append(kind)
        anchor = next((i for i in members if cat[i] == kind or (kind == "local_store" and cat[i] == "local_alloc")),
                      members[-1])
        graph_ops.append(_make_op(ops, members, anchor, kind, f"{kind}{ordinals[kind]}", used_ids, node_of, users,
                                  carried_to))
        ordinals[kind] += 1

    deps: dict[tuple[str, str, int], Dep] = {}
    for n, members in enumerate(ordered):
        for i in members:
            for v in ops[i].operands:
                src_node, distance = None, 0
                if v in defined_by and defined_by[v] in node_of:
                    src_node = node_of[defined_by[v]]
                elif v in iter_args:
                    k = iter_args.index(v)
                    y = yielded[k] if k < len(yielded) else None
                    if y is not None and y in defined_by and defined_by[y] in node_of:
                        src_node, distance, v = node_of[defined_by[y]], 1, y
                if src_node is None or (src_node == n and distance == 0):
                    continue
                if _bookkeeping_value(ops, defined_by, v):
                    continue   # scalar / address bookkeeping (increments) makes no tile-level edge
                src, dst = graph_ops[src_node], graph_ops[n]
                blocking = src.kind in ASYNC_PRODUCERS and not (src.kind == "dot" and dst.kind == "dot")
                key = (src.id, dst.id, distance)
                if key not in deps:
                    deps[key] = Dep(src=src.id, dst=dst.id, distance=distance, blocking=blocking, value=v)
    # Streaming: a variable-latency load that no in-loop tile value feeds.
    fed = {d.dst for d in deps.values()}
    graph_ops = [o if not o.variable_latency else _replace(o, streaming=o.id not in fed) for o in graph_ops]
    import triton

    m = {"kernel": kernel, "loop_index": module.loops().index(for_op), "arch": arch, "sm": ARCH_SM[arch], "num_warps": module.num_warps,
         "loop_line": for_op.loc.line, "loop_file": for_op.loc.file, "triton_version": triton.__version__,
         "ttgir_sha256": hashlib.sha256(module.text.encode()).hexdigest(),
         "bookkeeping": [ops[i].name for i in sorted(folded_nowhere)]}
    m.update(meta or {})
    graph = LoopGraph(name=kernel, ops=tuple(graph_ops), deps=tuple(deps.values()), meta=tuple(sorted(m.items())))
    check_no_zero_distance_cycle(graph)
    return graph


def _where(kernel: str, op: IROp) -> str:
    loc = f"{op.loc.file}:{op.loc.line}" if op.loc.file else f"line {op.loc.line}" if op.loc.line else None
    return f"{kernel} ({loc})" if loc else kernel


def _replace(op: Op, **kv) -> Op:
    import dataclasses

    return dataclasses.replace(op, **kv)


def _bookkeeping_value(ops: list[IROp], defined_by: dict[str, int], v: str) -> bool:
    """A scalar, pointer tensor or integer index tile: address arithmetic, not tile data."""
    i = defined_by.get(v)
    if i is None:
        return False
    if _category(ops[i]) in ("address", "scalar"):
        return True
    t = ops[i].result_type(v)
    info = type_info(t) if t else None
    return info is not None and (info.space == "scalar" or info.dtype.startswith("!tt.ptr"))


def _operand_types(op: IROp) -> list[TypeInfo]:
    import re

    last = op.full_text.splitlines()[-1]
    sig = re.sub(r"\s*loc\(#loc\d*\)\s*$", "", last if last.lstrip().startswith("})") else op.text)
    if " : " not in sig:
        return []
    tail = sig.rsplit(" : ", 1)[1].split("->")[0]
    from twill.ir.ttgir import _split_top

    parts = []
    for chunk in _split_top(tail.replace(" * ", ", ")):
        chunk = chunk.strip().strip("()")
        if chunk:
            parts.append(type_info(chunk))
    return parts


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

    infos = [type_info(t) for t in a.result_types] if a.result_types else []
    main = infos[0] if infos else TypeInfo("scalar", (), "")
    attrs: dict[str, object] = {}
    if kind == "dot":
        opt = _operand_types(a)
        if a.name.startswith("ttng.tc_gen5_mma") and len(opt) >= 2:
            A, B = opt[0], opt[1]
            main = TypeInfo("tmem", (A.shape[0], B.shape[1]), opt[2].dtype if len(opt) > 2 else "f32")
        else:
            A = opt[0] if opt else main
            B = opt[1] if len(opt) > 1 else main
        m_, k_ = (A.shape + (0, 0))[:2]
        n_ = B.shape[1] if len(B.shape) > 1 else 0
        attrs.update(m=m_, n=n_, k=k_, a_dtype=A.dtype, async_=True)
        attrs["async"] = attrs.pop("async_")
    elif kind in ("store",):
        opt = _operand_types(a)
        data = next((t for t in reversed(opt) if t.space == "regs" and not t.dtype.startswith("!tt.ptr")), None)
        if data is not None:
            main = data
    elif kind == "tmem_store":
        opt = _operand_types(a)
        if opt:
            main = TypeInfo("tmem", opt[0].shape, opt[0].dtype)
    elif kind == "sfu":
        attrs["fn"] = a.name.split(".")[-1]
    elif kind == "reduce":
        import re

        comb = re.findall(r"arith\.(\w+)", a.full_text)
        attrs["fn"] = {"maxnumf": "max", "maximumf": "max", "addf": "sum", "minnumf": "min", "minimumf": "min",
                       "addi": "sum", "maxsi": "max"}.get(comb[0], comb[0]) if comb else "?"
        src = _operand_types(a)
        if src:
            attrs["input_elements"] = src[0].elements
        axis = a.attrs.get("axis", "").split(":")[0].strip()
        if axis.lstrip("-").isdigit():
            attrs["axis"] = int(axis)
    if kind in ("tma_load", "load"):
        attrs["bytes"] = main.bytes
    attrs["elements"] = main.elements
    attrs.setdefault("bytes", main.bytes)
    attrs["nops"] = sum(1 for i in members if ops[i].name.startswith(("arith.", "math.")) and
                        type_info(ops[i].result_types[0]).space == "regs" if ops[i].result_types)
    # Footprints: results that live beyond the node (used by another node or carried).
    regs = smem = tmem = 0
    for i in members:
        o = ops[i]
        for r, t in zip(o.results, o.result_types):
            escapes = any(node_of.get(u) != node_of[i] for u in users.get(r, ())) or r in carried_to
            if not escapes:
                continue
            ti = type_info(t)
            if o.name in _VIEWS and ti.space in ("smem", "tmem"):
                continue   # a view of a buffer aliases it: the buffer's owner counts it
            if ti.space == "regs" and not ti.dtype.startswith("!tt.ptr"):
                regs += ti.bytes
            elif ti.space == "smem":
                smem += ti.bytes
            elif ti.space == "tmem":
                tmem += ti.bytes
    if kind in ("dot", "tmem_store") and main.space == "tmem":
        tmem = max(tmem, main.bytes)   # the accumulator / stored tile lives in tensor memory
    lines = sorted({ops[i].loc.line for i in members if ops[i].loc.line is not None})
    return Op(id=ident, kind=kind, unit=KIND_UNIT[kind],
              ops=tuple([a.name] + [ops[i].name for i in members if i != anchor]),
              ir=tuple(ops[i].text for i in sorted(members)), line=a.loc.line or (lines[0] if lines else None),
              file=a.loc.file, shape=main.shape, dtype=main.dtype,
              variable_latency=kind in ("tma_load", "load"), streaming=False,
              regs=regs, smem=smem, tmem=tmem, attrs=tuple(sorted(attrs.items())))
