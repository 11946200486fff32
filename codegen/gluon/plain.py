"""Code outside the scheduled loops that is not straight-line, written as it runs (not pipelined): an
``scf.if`` on a runtime value (its results assigned on both sides), a loop inside one or inside an early
return's branch (one iteration after another), and the early returns themselves (``Guard``: ``if c: ...;
return`` at the top of the kernel, before any partition starts).

Real kernels write these around their main loop: Liger's cross entropy returns early for an ignored label
after zeroing its row, vLLM's fused MoE returns for a block past the routed tokens, kernels copy or clear a
buffer under a runtime flag. None of it is in the schedule; each op inside goes through ``ops.translate``
as straight-line code does.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from codegen.gluon.layouts import gl_dtype
from codegen.gluon.ops import is_sync_dot, source_where, translate
from codegen.gluon.values import Context, Val, py_name
from twill.errors import UnsupportedError
from twill.ir import vocab
from twill.ir.ttgir import Block, IROp

IF = "scf.if"
WHILE = "scf.while"
EFFECTS = vocab.STORES | vocab.BARRIERS
_NAME = r"%[\w$.\-]+(?:#\d+)?"


def effectful(op: IROp) -> bool:
    """Whether ``op`` writes memory: a store or an atomic, or a region op with one inside."""
    if op.name in EFFECTS:
        return True
    blocks = ((op.body,) if op.body is not None else ()) + op.regions
    return any(effectful(o) for b in blocks for o in b.ops)


def compound(op: IROp) -> bool:
    """Whether ``plain`` writes ``op`` (an ``scf.if``, an ``scf.while``, or an ``scf.for`` that is not a scheduled
    loop)."""
    return op.name in (IF, WHILE, vocab.LOOP)


def plain(op: IROp, ctx: Context) -> list[str]:
    """Source lines of ``op`` written as it runs; its results defined in ``ctx``."""
    if op.name == IF:
        return _if(op, ctx)
    if op.name == vocab.LOOP:
        return _for(op, ctx)
    if op.name == WHILE:
        return _while(op, ctx)
    if (op.name in vocab.TMA_LOADS | {"tt.descriptor_store"} or op.name in vocab.CONTROL_FLOW
            or (op.name in vocab.DOTS and op.name != "ttng.warp_group_dot" and not is_sync_dot(op, ctx))):
        # mma.sync and FMA dots: synchronous calls; a wgmma issued and retired at once (``ops.wgmma``: a block-sparse
        # kernel's dots inside ``if`` its block is kept)
        raise UnsupportedError("the Gluon back end writes pointer loads, stores and arithmetic inside an if or a "
                               "loop that is not scheduled", where=source_where(op), found=op.name)
    return _in_readers_layout(op, ctx)


def _in_readers_layout(op: IROp, ctx: Context) -> list[str]:
    """``op`` translated; an operand held in the compact layout converted to Triton's for ``op`` alone
    (``Context.relaid_operands``, as the pipelined loop converts it), so that a name assigned in a branch is not
    read after it."""
    moved = ctx.relaid_operands(op)
    saved = {v: ctx.vals[v] for v, _, _ in moved}
    for v, name, _ in moved:
        ctx.vals[v] = Val(name, ctx.ttype(v))
    try:
        return [line for _, _, line in moved] + translate(op, ctx)
    finally:
        ctx.vals.update(saved)


def _block(block: Block, ctx: Context, names: list[str], like: tuple[str, ...]) -> list[str]:
    """A region's ops; its yield assigns ``names`` (as values like ``like``)."""
    lines: list[str] = []
    for op in block.ops:
        if op.name == vocab.YIELD:
            lines += [f"{n} = {held(ctx, y, t)}" for n, y, t in zip(names, op.operands, like)]
        elif op.name != "tt.return":
            lines += plain(op, ctx)
    return lines


def _indent(lines: list[str]) -> list[str]:
    return ["    " + ln for ln in lines] or ["    pass"]


def _if(op: IROp, ctx: Context) -> list[str]:
    m = re.search(rf"scf\.if\s+({_NAME})", op.text)
    if m is None or not op.regions:
        raise UnsupportedError("an scf.if the Gluon back end cannot read", where=source_where(op), found=op.text[:80])
    names = [py_name(r) for r in op.results]
    cond = ctx.get(m.group(1)).expr
    lines = [f"if {cond}:"] + _indent(_block(op.regions[0], ctx, names, op.results))
    if len(op.regions) > 1:
        lines += ["else:"] + _indent(_block(op.regions[1], ctx, names, op.results))
    for r, n in zip(op.results, names):
        ctx.vals[r] = Val(n, ctx.ttype(r))
    return lines


def _for(op: IROp, ctx: Context) -> list[str]:
    m = re.search(rf"scf\.for\s+({_NAME})\s*=\s*({_NAME})\s+to\s+({_NAME})\s+step\s+({_NAME})", op.text)
    if m is None or op.body is None:
        raise UnsupportedError("a loop whose bounds the Gluon back end cannot read", where=source_where(op),
                               found=op.text[:80])
    iv, args = op.body.args[0], op.body.args[1:]
    names = [py_name(a) for a in args]
    lines = [f"{n} = {held(ctx, init, a)}" for n, init, a in zip(names, op.body.inits, args)]
    for a, n in zip(args, names):
        ctx.vals[a] = Val(n, ctx.ttype(a))
    ctx.vals[iv] = Val(py_name(iv), ctx.ttype(iv))
    lb, ub, step = (ctx.get(m.group(k)).expr for k in (2, 3, 4))
    lines += [f"for {py_name(iv)} in range({lb}, {ub}, {step}):"] + _indent(_block(op.body, ctx, names, args))
    for r, n in zip(op.results, names):
        ctx.vals[r] = Val(n, ctx.ttype(r))
    return lines


def _while(op: IROp, ctx: Context) -> list[str]:
    """An ``scf.while`` (vLLM's binary search for a query block's sequence before its attention loop): its carried
    values assigned from their inits, its condition region written before the loop and again at the end of each
    iteration (``while go:``), the values the condition hands on named as the loop's results."""
    if len(op.regions) != 2 or not op.regions[0].ops or op.regions[0].ops[-1].name != "scf.condition":
        raise UnsupportedError("a while loop the Gluon back end cannot read", where=source_where(op),
                               found=op.text[:80])
    before, after = op.regions
    cond = before.ops[-1]
    names = [py_name(a) for a in before.args]
    outs = [py_name(r) for r in op.results]
    go = f"{outs[0]}_go" if outs else f"{py_name(cond.operands[0])}_go"
    lines = [f"{n} = {held(ctx, init, a)}" for n, init, a in zip(names, before.inits, before.args)]
    for a, n in zip(before.args, names):
        ctx.vals[a] = Val(n, ctx.ttype(a))

    def test() -> list[str]:          # the condition region, its forwarded values named as the loop's results
        out = [ln for o in before.ops[:-1] for ln in plain(o, ctx)]
        out += [f"{go} = {ctx.get(cond.operands[0]).expr}"]
        return out + [f"{n} = {held(ctx, v, r)}" for n, v, r in zip(outs, cond.operands[1:], op.results)]
    lines += test()
    for a, n in zip(after.args, outs):
        ctx.vals[a] = Val(n, ctx.ttype(a))
    body = _block(after, ctx, names, before.args)
    for a, n in zip(before.args, names):
        ctx.vals[a] = Val(n, ctx.ttype(a))
    lines += [f"while {go}:"] + _indent(body + test())
    for r, n in zip(op.results, outs):
        ctx.vals[r] = Val(n, ctx.ttype(r))
    return lines


def held(ctx: Context, v: str, like: str) -> str:
    """``v`` as a value a branch or an iteration hands on, typed as ``like``: a tensor in its layout (a splat
    constant made a ``gl.full``), a scalar literal made a tensor of its type (so both sides of an ``if``, and
    every iteration, agree)."""
    t = ctx.ttype(like)
    if t.kind == "tensor":
        return ctx.tensor(v, like=like)
    expr = ctx.get(v).expr
    if re.fullmatch(r"-?\d[\d.e+\-]*|True|False|float\(\"-?\w+\"\)", expr):
        cast = "" if t.dtype in ("f32", "i32", "i1") else f".to({gl_dtype(t.dtype)})"
        return f"gl.to_tensor({expr}){cast}"
    return expr


@dataclass(frozen=True)
class Guard:
    """An early return: where ``cond`` (an i1 value) holds, the ops of ``block`` run and the kernel returns.
    ``at``: its place among the function's top-level ops, once the guards are taken out."""

    cond: str
    negate: bool                      # the block runs where ``cond`` does not hold (it is the branch's second)
    block: Block
    at: int
    op: IROp                          # the cf.cond_br


def early_returns(ops: list[IROp], text: str, where: str) -> tuple[list[IROp], list[Guard]]:
    """The function's top-level ops without its early returns, and the early returns. Triton writes ``if c:
    ...; return`` as ``cf.cond_br %c, ^bbT, ^bbF``, the returning block, then the rest: the ops are read flat,
    in text order, so the block is the ops up to the first ``tt.return`` after the branch. Anything else
    (a branch that does not return, several ops branching) is refused in one line. Stores before an early return
    (triton_kernels' top-k: a memset under ``if``, then ``if ...: return``) run before it on every path:
    ``entry_effects`` names them, and the kernel writes them before its guards, once."""
    lines = text.splitlines()
    out: list[IROp] = []
    guards: list[Guard] = []
    i = 0
    while i < len(ops):
        op = ops[i]
        if op.name not in vocab.BRANCHES:
            out.append(op)
            i += 1
            continue
        m = re.match(rf"cf\.cond_br\s+({_NAME})\s*,\s*(\^bb\d+)\s*,\s*(\^bb\d+)\s*(?:loc|$)", op.text.strip())
        end = next((k for k in range(i + 1, len(ops)) if ops[k].name == "tt.return"), None)
        label = _label_after(lines, op.lineno)
        other = None if m is None or label not in (m.group(2), m.group(3)) else \
            m.group(3) if label == m.group(2) else m.group(2)
        if other is not None and other != label and _returns_only(lines, other) and not _starts_at(lines, op.lineno):
            # several early returns sharing one returning block (vLLM's LoRA kernels: three ``if ...: return`` in a
            # row): this branch goes back to that block, its next block is the code after it
            guards.append(Guard(m.group(1), other != m.group(2), Block((), (), []), len(out), op))
            i += 1
            continue
        if m is None or end is None or end == len(ops) - 1 or label not in (m.group(2), m.group(3)) \
                or any(o.name in vocab.BRANCHES for o in ops[i + 1:end]):
            raise UnsupportedError("the Gluon back end writes an early return as `if c: ...; return`",
                                   where=f"{where}, {source_where(op)}",
                                   found=f"{op.text.strip()[:60]} (a branch it cannot read as one)",
                                   hint="emit through Triton's own passes (--emit triton)")
        cond = m.group(1)
        guards.append(Guard(cond, label != m.group(2), Block((), (), list(ops[i + 1:end])), len(out), op))
        i = end + 1
    return out, guards


def entry_effects(ops: list[IROp], guards: list[Guard]) -> set[int]:
    """The indices of the stores (and ops holding stores) among ``ops`` before the last early return of ``guards``:
    every program runs them, those that return early too, so the kernel writes them before its guards, once (the
    first consumer, which writes the other stores before the loop, leaves them)."""
    last = max((g.at for g in guards), default=0)
    return {i for i, o in enumerate(ops[:last]) if effectful(o)}


def guarding_ifs(ops: list[IROp], loop: IROp, guards: list[Guard], where: str) -> tuple[list[IROp], list[Guard]]:
    """The function's top-level ops with each ``scf.if`` around the scheduled loop opened, and ``guards`` with one
    early return for each: ``if c: <ops, the loop among them>`` becomes ``if not c: <the else branch>; <the code
    after the if>; return``, then the branch's ops at the top of the function and the code after the if (decode
    attention's ``if split_kv_end > split_kv_start:`` around its loop and stores; a split-K GEMM's ``if`` around its
    K loop, the accumulator it yields, zeros where its slice is empty, added to C after it). The code after the if
    runs on both paths, reading the branch's yields on each (``renamed_op``). Sound where nothing before the if
    writes memory (the early return is taken before any partition starts) and no other early return follows it;
    anything else is refused in one line."""
    out, guards = list(ops), list(guards)
    while True:
        k = next((i for i, o in enumerate(out) if o.name == IF and _holds(o, loop)), None)
        if k is None:
            return out, guards
        op = out[k]
        m = re.search(rf"scf\.if\s+({_NAME})", op.text)
        if m is None or not op.regions:
            raise UnsupportedError("an scf.if the Gluon back end cannot read", where=f"{where}, {source_where(op)}",
                                   found=op.text[:80])
        inner = 0 if any(_holds_in(o, loop) for o in op.regions[0].ops) else 1
        after = out[k + 1:]
        blocked = (f"{next(o for o in out[:k] if effectful(o)).name} before it" if any(effectful(o) for o in out[:k])
                   else "another early return after it" if any(g.at > k for g in guards) and after else "")
        if blocked:
            raise UnsupportedError("the Gluon back end writes the scheduled loop inside an if as an early return "
                                   "where the condition fails: nothing before the if may write memory, and no other "
                                   "early return may follow it", where=f"{where}, {source_where(op)}", found=blocked)
        other = op.regions[1 - inner].ops if len(op.regions) > 1 else []
        body = [o for o in op.regions[inner].ops if o.name != vocab.YIELD]
        ours, theirs = (_yielded(op.regions[inner].ops), _yielded(other))
        if op.results and (len(ours) != len(op.results) or len(theirs) != len(op.results)):
            raise UnsupportedError("an scf.if the Gluon back end cannot read", where=f"{where}, {source_where(op)}",
                                   found=f"{len(op.results)} results, yields of {len(ours)} and {len(theirs)}")
        rest = [renamed_op(o, dict(zip(op.results, theirs))) for o in after if o.name != "tt.return"]
        after = [renamed_op(o, dict(zip(op.results, ours))) for o in after]
        shift = len(body) - 1
        guards = [g if g.at <= k else dataclasses.replace(g, at=g.at + shift) for g in guards]
        guards.append(Guard(m.group(1), inner == 0,
                            Block((), (), [o for o in other if o.name != vocab.YIELD] + rest), k, op))
        out = out[:k] + body + after


def _yielded(ops: list[IROp]) -> tuple[str, ...]:
    return next((o.operands for o in ops if o.name == vocab.YIELD), ())


def renamed_op(op: IROp, names: dict[str, str]) -> IROp:
    """``op`` reading ``names[v]`` wherever it (or an op of its regions) reads ``v``."""
    names = {v: n for v, n in names.items() if v != n}
    if not names or not set(op.operands) & set(names):
        return op
    def sub(text: str) -> str:          # a whole name (a result of several, %r#1, with its number)
        return re.sub(r"%[\w$.\-]+(?:#\d+)?", lambda m: names.get(m.group(0), m.group(0)), text)

    def block(b: Block | None) -> Block | None:
        return None if b is None else dataclasses.replace(
            b, inits=tuple(names.get(v, v) for v in b.inits), ops=[renamed_op(o, names) for o in b.ops])
    return dataclasses.replace(op, operands=tuple(names.get(v, v) for v in op.operands), text=sub(op.text),
                               full_text=sub(op.full_text), body=block(op.body),
                               regions=tuple(block(b) for b in op.regions))


def _holds_in(op: IROp, loop: IROp) -> bool:
    return op is loop or (op.name in (IF, vocab.LOOP, vocab.WHILE) and _holds(op, loop))


def _holds(op: IROp, loop: IROp) -> bool:
    """Whether ``loop`` is among the ops of one of ``op``'s regions (a loop's body among them), or of an ``if`` or a
    loop inside one (torchtitan's MoE weight gradient: ``if expert_id < NUM_EXPERTS:`` around its loop over groups,
    the scheduled loop inside that one's ``if``)."""
    blocks = list(op.regions) + ([op.body] if op.body is not None else [])
    return any(_holds_in(o, loop) for b in blocks if b is not None for o in b.ops)


def _returns_only(lines: list[str], label: str) -> bool:
    """Whether block ``label``'s first op is ``tt.return`` (a block that only returns)."""
    at = next((k for k, ln in enumerate(lines) if ln.strip().startswith(label + ":")
               or ln.strip().startswith(label + "(")), None)
    if at is None:
        return False
    first = next((ln.strip() for ln in lines[at + 1:] if ln.strip() and not ln.strip().startswith("//")), "")
    return first.startswith("tt.return")


def _starts_at(lines: list[str], lineno: int) -> bool:
    """Whether the block after the branch at (1-based) ``lineno`` only returns (the first branch of a shared
    returning block: read as the block after it, as any early return)."""
    label = _label_after(lines, lineno)
    return label is not None and _returns_only(lines, label)


def _label_after(lines: list[str], lineno: int) -> str | None:
    """The label of the block that follows a branch at (1-based) ``lineno``."""
    for ln in lines[lineno:]:
        s = ln.strip()
        if s.startswith("^bb"):
            return s.split(":")[0].split("(")[0]
        if s and not s.startswith("//"):
            return None
    return None


def plain_block(block: Block, ctx: Context) -> list[str]:
    """An early return's branch, its ops as they run (no ``return``: a persistent kernel's tile goes on to the next)."""
    return _block(block, ctx, [], ())


def guard_lines(g: Guard, ctx: Context) -> list[str]:
    """``if cond: <the block>; return`` (its values defined in ``ctx``)."""
    cond = ctx.get(g.cond).expr
    return [f"if {'not ' if g.negate else ''}{cond}:"] + _indent(_block(g.block, ctx, [], ()) + ["return"])


_DEFS = re.compile(r"^\s*(%[\w$.\-]+(?::\d+)?(?:\s*,\s*%[\w$.\-]+(?::\d+)?)*)\s*=\s*(?!loc\()")
_LOOP_DEFS = re.compile(r"(?:scf\.for|iter_args\(|,)\s*(%[\w$.\-]+)\s*=")


def distinct_branch_names(text: str, keep: tuple[int, int] | None = None) -> str:
    """``text`` with each value defined inside an ``scf.if`` (or an ``scf.while``'s condition) renamed where another
    op of the module defines the same name (MLIR scopes names by region: an ``if``'s branches, or a loop inside one
    and the loop after it, may both define ``%a``; the generated Python has one scope, and Gluon merges a name both
    branches assign).
    An early return's block (``cf.cond_br`` to a block that ends in ``tt.return``: Liger's ignored row, whose
    zeroing loop may define the names the scheduled loop does) counts as a branch.
    A renamed value keeps its name with ``_b<line>`` added, from its definition to the end of its region;
    values defined elsewhere keep theirs, and so do those of ``keep`` (the scheduled loop's first and last line,
    0-based), its graph's nodes, where no definition outside every branch does (FlexAttention's backward: its
    scheduled loop inside an ``if``, the dQ branch's loops defining the same names; renamed, the loop's ops matched no
    graph node and its scale was written before the product it scales)."""
    lines = text.splitlines()
    guarded = _return_blocks(lines)
    stack: list[tuple[bool, int]] = []        # open regions: (inside an if, first line)
    ends: dict[int, int] = {}                 # region's first line -> its closing line
    defs: list[tuple[str, int, int, bool]] = []   # (name, line, region's first line, inside an if)
    for k, ln in enumerate(lines):
        s = ln.strip()
        if s.startswith("}") and stack:
            ends[stack.pop()[1]] = k
        outer = stack[-1] if stack else (k in guarded, -1)      # where the line's results are defined
        if ln.rstrip().endswith("{") and not s.startswith("module") and "tt.func" not in s:
            stack.append((outer[0] or "scf.if" in s or s.startswith("} else") or "scf.while" in s, k))
        m = _DEFS.match(ln)
        for n in ([n.split(":")[0].strip() for n in m.group(1).split(",")] if m else []):
            defs.append((n, k, outer[1], outer[0]))
        if "scf.for" in s:                                # its variables: defined in the body it opens
            for n in _LOOP_DEFS.findall(s.split(" -> ")[0].split(" : ")[0]):
                defs.append((n, k, stack[-1][1], stack[-1][0]))
    by_name: dict[str, list[tuple[str, int, int, bool]]] = {}
    for d in defs:
        by_name.setdefault(d[0], []).append(d)
    for name, ds in by_name.items():
        if len(ds) < 2 or not any(d[3] for d in ds):
            continue
        kept = next((d for d in ds if not d[3]), None) or \
            next((d for d in ds if keep is not None and keep[0] <= d[1] <= keep[1]), ds[0])
        for _, k, region, _ in (d for d in ds if d is not kept and d[3]):
            new = f"{name}_b{k + 1}"
            pattern = re.compile(re.escape(name) + r"(?![\w$.\-])")
            for j in range(k, ends.get(region, len(lines) - 1) + 1):
                lines[j] = pattern.sub(new, lines[j])
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def _return_blocks(lines: list[str]) -> set[int]:
    """The lines of each block (``^bbN:`` to the next label of its function) that returns and is not its function's
    last: an early return's branch."""
    out: set[int] = set()
    label = re.compile(r"\^\w+[:(]")
    depth, body, start = 0, None, None        # brace depth; the function body's depth; the open block's first line
    for k, ln in enumerate(lines):
        s = ln.strip()
        if body is not None and label.match(s) and depth == body:
            if start is not None and any("tt.return" in x for x in lines[start:k]):
                out.update(range(start, k))
            start = k
        depth += ln.count("{") - ln.count("}")
        if "tt.func" in s and ln.rstrip().endswith("{"):
            body, start = depth, None
        elif body is not None and depth < body:   # the function's closing brace: its last block is not a branch
            body, start = None, None
    return out


_RANGE = re.compile(r"^(\s*)(%[\w$.\-]+) = tt\.(?:make_range|broadcast) ")


def distinct_ranges(text: str) -> str:
    """``text`` with each ``tt.make_range`` and ``tt.broadcast`` defined outside the loops given one copy per op
    that reads it.

    Triton's CSE merges ``tl.arange(0, 128)`` calls of one layout, and the broadcasts of one column offset: with
    ``BLOCK_M == BLOCK_N`` the query rows' range and the key block's are one value, and ``offs_d[None, :]`` widened to
    128 rows is one value that both the query's and the key's addresses add. The dimension analysis would tie the
    rows to the keys they are contracted over through it and refuse the row split (flash_attn_triton's
    ``_fwd_kernel``, pointer-based attention with square blocks). A copy per reader keeps each dimension its
    reader's. The copies are defined beside the original and read by the ops outside the loops (where kernels set
    up their addresses); the readers inside a loop keep the original (the loop's graph nodes hold their text). So are
    the ranges in the body of the kernel's own loops around another loop, and of an ``if`` there (torchtitan's
    persistent MoE GEMM sets up its tile's rows and B's rows, read as ``b.T``, inside its tile loop and ``if``), each
    copied for its readers in the same region."""
    lines = text.splitlines()
    depth_at, depth = [], 0
    for ln in lines:
        depth_at.append(depth)
        depth += ln.count("{") - ln.count("}") if not ln.lstrip().startswith(("#", "module", "tt.func")) else 0
    taken = set(re.findall(r"%[\w$.\-]+", text))
    inserts: dict[int, list[str]] = {}
    for k, ln in enumerate(lines):
        m = _RANGE.match(ln)
        d = depth_at[k]
        if m is None or (d and not _around_loops(lines, depth_at, k)):  # in a loop with no loop inside: as it is
            continue
        name = m.group(2)
        use = re.compile(re.escape(name) + r"(?![\w$.\-])")
        end = next((j for j in range(k + 1, len(lines)) if depth_at[j] < d), len(lines))   # the region's end
        readers = [j for j in range(k + 1, end) if use.search(lines[j])]
        inside = any(depth_at[j] > d for j in readers)  # readers in an inner region keep the name
        outside = [j for j in readers if depth_at[j] == d]
        for n, j in enumerate(outside if inside else outside[1:], 1):
            new = f"{name}_r{n}"
            while new in taken:
                new += "x"
            taken.add(new)
            inserts.setdefault(k, []).append(ln.replace(name, new, 1))
            lines[j] = use.sub(new, lines[j])
    out: list[str] = []
    for k, ln in enumerate(lines):
        out.append(ln)
        out.extend(inserts.get(k, ()))
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def _around_loops(lines: list[str], depth_at: list[int], k: int) -> bool:
    """Whether each region around line ``k`` is an ``scf.if``'s or the body of a loop with another loop inside it (the
    kernel's own loops around the scheduled one), never the body of an innermost loop."""
    d = depth_at[k]
    for j in range(k - 1, -1, -1):
        if depth_at[j] >= d or not lines[j].rstrip().endswith("{"):
            continue
        head = lines[j]                       # the op that opened the region around line ``k`` (``d - 1`` deep)
        if "scf.for" in head or "scf.while" in head:
            end = next((i for i in range(j + 1, len(lines)) if depth_at[i] <= depth_at[j]), len(lines))
            if not any("scf.for" in x or "scf.while" in x for x in lines[j + 1:end]):
                return False
        elif "scf.if" not in head:
            return False
        d = depth_at[j]
        if d == 0:
            return True
    return False


def effect_name(op: IROp) -> str:
    """What an op writes, named by the innermost op that does and its source line: the store inside an ``if`` (the
    top-k router's memset under ``if``), not the ``if``."""
    inner = next((o for o in op.nested() if o.name in EFFECTS), None) if op.name not in EFFECTS else None
    return f"{inner.name} ({source_where(inner)}) in {op.name}" if inner is not None else op.name
