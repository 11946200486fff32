"""The source of one consumer partition's loop: modulo-scheduled code from the schedule's stages.

Bodies b = 0 .. n + S - 2; body b runs each op of stage s on iteration b - s, in the schedule's slot
order. Bodies 0 .. S-2 (prologue) and n .. n+S-2 (epilogue) are written out with the ops whose
iteration exists; the others form the steady ``for`` loop. A value read a stages after the one that
defines it is read under an aged name (``x_p1`` is ``x`` of the previous body); names rotate at the
end of every body. An iter_arg's initial value is written where its first iteration would have been
defined (body s - 1). Tensor-core dots are issued asynchronously and waited for right before their
result is first read, in this body or the next (a dot reading it as its accumulator does not wait),
with the depth the issue order implies: a dot issued at the end of a body runs while the next body
issues its first (an op writing a dot's accumulator retires them all first: ptxas would serialise
the wgmmas); a streamed tile's buffer is waited for before its first reader and released once
its last reader has completed. Turn barriers keep the schedule's tensor-core order across consumers.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from codegen.gluon.layouts import gl_dtype
from codegen.gluon.ops import imprecise, is_sync_dot, mask_keyword, source_where, tile_copies, translate
from codegen.gluon.plain import IF, held, plain
from codegen.gluon.plan import (AsyncTile, ColumnSplit, Item, KernelPlan, Partition, Reduction, Ring, instance,
                                 alloc_name, staged_name, stored_name, tile_suffix)
from codegen.gluon.protocol import COPY_FLAG
from codegen.gluon.values import Context, Val, py_name, renamed_def
from twill.errors import UnsupportedError
from twill.ir import vocab
from twill.ir.ttgir import IROp


def sub_name(v: str, sub: int | None) -> str:
    return py_name(v) + ("" if sub is None else f"_t{sub}")


def _wait_in_branches(lines: list[str], start: int, wait: str, names: set[str]) -> None:
    """Put ``wait`` first in each branch of the ``if`` written at ``lines[start:]`` that reads one of ``names``."""
    head = re.compile(r"^(\s*)(if .*|else):")
    used = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names))) + r")\b")
    heads = [i for i in range(start, len(lines)) if head.match(lines[i])]
    base = min(len(head.match(lines[i]).group(1)) for i in heads)
    heads = [i for i in heads if len(head.match(lines[i]).group(1)) == base]
    for i, j in reversed(list(zip(heads, heads[1:] + [len(lines)]))):
        if any(used.search(ln) for ln in lines[i + 1:j]):
            indent = re.match(r"\s*", lines[i + 1]).group(0)
            lines.insert(i + 1, indent + wait)


def aged(name: str, age: int) -> str:
    return name if age == 0 else f"{name}_p{age}"


@dataclass(frozen=True)
class Turn:
    """The tensor-core order of the schedule's slots, as turn barriers. The consumers' dots of one
    iteration, in slot order, fall into ``count`` runs of one consumer each; run g waits
    ``turn[g]`` before its first dot and arrives ``turn[(g + 1) % count]`` after its last. ``at``: this
    consumer's dots -> (run, first of the run, last of the run); ``first``: the first steady body (the
    turns run in steady bodies, where every run issues)."""

    at: dict[tuple[int, int | None], tuple[int, bool, bool]]
    count: int
    first: int
    base: str = ""              # persistent kernel: the steady bodies of this program's earlier tiles (an expression)


@dataclass(frozen=True)
class Shared:
    """What the partitions' source refers to by name: rings, the loop bounds, the turn barriers."""

    bounds: tuple[str, str, str]
    base: str = ""              # persistent kernel: the iterations of this program's earlier tiles

    def _k(self, k: str) -> str:
        return f"{self.base} + {k}" if self.base else k

    def tile(self, r: Ring, k: str) -> str:
        return f"{r.name}_buf.index(({self._k(k)}) % {r.depth}){r.view}"

    def ready_wait(self, r: Ring, k: str) -> str:
        k = self._k(k)
        return f"mbarrier.wait({r.name}_ready.index(({k}) % {r.depth}), (({k}) // {r.depth}) & 1)"

    def release(self, r: Ring, k: str, pred: str = "") -> str:
        return f"mbarrier.arrive({r.name}_empty.index(({self._k(k)}) % {r.depth}){pred})"


@dataclass
class Body:
    """One body being written: its index expression, the stages it runs, and the async state."""

    b: str
    stages: set[int]
    turn: Turn | None
    lines: list[str] = field(default_factory=list)
    outstanding: list[tuple[Item, str | None]] = field(default_factory=list)   # (dot, token; None: issued by the body before)
    done: set[tuple[int, int | None, int]] = field(default_factory=set)   # retired (op, sub, 1 if from the body before)
    pending: list[tuple[Ring, str, set[tuple[int, int | None, int]], str]] = field(default_factory=list)   # + pred
    ready: set[tuple[str, str]] = field(default_factory=set)            # (ring, iteration) waited
    stored: set[str] = field(default_factory=set)                       # staged buffers written
    async_wait: int | None = None       # the fewest commit groups left in flight by a wait in this body
    written: set[tuple[int, int | None]] = field(default_factory=set)   # items written so far (op, sub)


class OperandHazard(Exception):
    """A dot kept in flight past its body would read a register operand the next body has already written again:
    the loop is written again with that dot retired in its body (``LoopWriter.retire_in_body``)."""

    def __init__(self, op: int, subtile: int | None) -> None:
        super().__init__(op, subtile)
        self.item = (op, subtile)


class LoopWriter:
    """Writes one consumer's pipelined loop (prologue, steady loop, epilogue) into lines."""

    def __init__(self, plan: KernelPlan, part: Partition, ctx: Context, shared: Shared, turn: Turn | None,
                 stages: int | None = None) -> None:
        """``stages``: the bodies' stage count, the same for every consumer (the most any has), so that
        their steady loops take the same number of turns."""
        self.plan, self.part, self.ctx, self.shared, self.turn = plan, part, ctx, shared, turn
        self.ops = plan.body
        self.items = list(part.items)
        self.stage_of = {(x.op, x.subtile): x.stage for x in self.items}
        self.S = max(part.stages, stages or 0)
        body = plan.loop.body
        assert body is not None
        self.iv, self.args = body.args[0], body.args[1:]
        yielded = next((o.operands for o in self.ops if o.name == vocab.YIELD), ())   # () carrying nothing
        self.carried = dict(zip(self.args, yielded))
        self.inits = dict(zip(self.args, body.inits))
        self.defined = {r: i for i, op in enumerate(self.ops) for r in op.results}
        self.asyncs = {a.load: a for a in plan.asyncs if a.part == part.index}
        self.rings = {}
        for r in plan.rings:
            if part.index in r.readers:
                tile = self.ops[r.alloc if r.alloc is not None else r.load].results[0]
                self.rings[(tile, r.subtile)] = r
        self.views = self._views()
        # accumulators a non-dot op writes (e.g. the FA forward's O rescaled before the next PV): ptxas
        # serialises every wgmma of a function that writes one while a wgmma runs ("non wgmma instructions
        # reading accumulator registers of a wgmma between start and end of the pipeline stage")
        self.accumulators = {o.operands[2] for o in self.ops if o.name in vocab.DOTS and len(o.operands) > 2}
        self.node_of = plan.node_of
        self._skip = {i for i, op in enumerate(self.ops) if op.name == "ttg.memdesc_trans" and op.results[0] in self.views}
        self._skip |= plan.staging.skip        # conversions to a dot operand read from a staged buffer instead
        if plan.reduction is not None:         # the reducer computes the atomic add's addresses
            self._skip |= plan.reduction.skip
        self.max_age: dict[str, int] = {}           # the oldest age a body reads a name at
        self.retire_in_body: set[tuple[int, int | None]] = set()   # register-operand dots retired in their body
        self.stores_in_flight = False      # a TMA store of the loop was issued: ``finish`` waits for the last ones
        self.result_age: dict[str, int] = {}        # the age a loop result is read at after the last body
        self.span = self._reader_stages()
        self.inflight: list[Item] = []             # dots the previous body left in flight
        self.carry: list[tuple[Ring, int, set[tuple[int, int | None, int]]]] = []   # their releases (ring, stage, readers)
        self.steady_end: tuple[list[Item], list] | None = None   # what a steady body leaves in flight (dry run)
        self.last_b = "0"
        self.empty_loop = False     # the loop may run no iteration: the releases after it are predicated on one
        self.read_buffers: list[str] = []          # the shared buffers its dots and TMA stores read (``finish``)
        self.view_of: dict[str, str] = {}          # a named view of a buffer -> the buffer

    # -- what a value is ------------------------------------------------------------------------------
    def _views(self) -> dict[str, tuple[str, str]]:
        """Views of a ring tile (a transposed K tile): value -> (tile value, method chain)."""
        out = {t: (t, "") for t, _ in self.rings}
        changed = True
        while changed:
            changed = False
            for op in self.ops:
                if op.name == "ttg.memdesc_trans" and op.operands[0] in out and op.results[0] not in out:
                    order = re.search(r"order = array<i32: ([\d, ]+)>", op.full_text)
                    perm = tuple(int(x) for x in order.group(1).split(",")) if order else (1, 0)
                    tile, chain = out[op.operands[0]]
                    out[op.results[0]] = (tile, chain + f".permute({perm})")
                    changed = True
        return out

    def _ring(self, tile: str, sub: int | None) -> Ring | None:
        return self.rings.get((tile, sub)) or self.rings.get((tile, None))

    def _reader_stages(self) -> dict[Ring, tuple[int, int]]:
        out: dict[Ring, tuple[int, int]] = {}
        for x in self.items:
            if x.op in self._skip:
                continue
            for v in self.ops[x.op].operands:
                if v in self.views:
                    r = self._ring(self.views[v][0], x.subtile)
                    if r is not None:
                        lo, hi = out.get(r, (x.stage, x.stage))
                        out[r] = (min(lo, x.stage), max(hi, x.stage))
        return out

    def _def(self, v: str, sub: int | None) -> tuple[int, int | None] | None:
        j = self.defined.get(v)
        if j is None:
            return None
        for s in (sub, None):
            if (j, s) in self.stage_of:
                return j, s
        return None

    def value(self, v: str, x: Item, b: str) -> tuple[Val, tuple[int, int | None] | None, int]:
        """Operand ``v`` of item ``x`` in body ``b``: (its value, the item defining it, its age)."""
        dist = 0
        if v in self.carried:
            v, dist = self.source(v)
        if v == self.iv:
            lb, _, step = self.shared.bounds
            return Val(f"({lb} + ({b} - {x.stage}) * {step})", self.ctx.ttype(v)), None, 0
        if v in self.views and dist == 0:
            tile, chain = self.views[v]
            r = self._ring(tile, x.subtile)
            if r is not None:
                return Val(self.shared.tile(r, f"{b} - {x.stage}") + r.part(x.subtile) + chain, self.ctx.ttype(v),
                           smem=True), None, 0
        d = self._def(v, x.subtile)
        if d is None:                                 # defined before the loop
            val = self.ctx.vals.get(sub_name(v, x.subtile)) or self.ctx.vals.get(py_name(v))
            if val is None:
                raise UnsupportedError("the Gluon back end has no value for an operand", where=self.plan.graph.name,
                                       found=f"{v} in consumer {self.part.index}")
            return val, None, 0
        age = dist + x.stage - self.stage_of[d]
        if age < 0:
            raise UnsupportedError("the schedule reads a value in an earlier stage than the one that defines it",
                                   where=self.plan.graph.name, found=f"{v} in consumer {self.part.index}")
        name = sub_name(v, d[1])
        known = self.ctx.vals.get(name)
        if known is not None and known.broadcast and not known.expr.isidentifier():
            return known, d, age                      # a loop-invariant scalar expression
        self.max_age[name] = max(self.max_age.get(name, 0), age)
        pre = known.pre if known is not None and age == 0 else None   # a broadcast of this body: its source too
        return Val(aged(name, age), self.ctx.ttype(v), known.broadcast if known else False, pre=pre), d, age

    def source(self, arg: str) -> tuple[str, int]:
        """The body value iter_arg ``arg`` holds, and how many iterations old: an iter_arg the yield hands on
        unchanged (a window of carried values shifted one place an iteration, vLLM's causal conv1d's
        ``col0 = col1; col1 = col2; col2 = x``) holds what it was handed, one iteration older."""
        v, dist = arg, 0
        while v in self.carried:
            v, dist = self.carried[v], dist + 1
            if dist > len(self.carried):
                raise UnsupportedError("the loop's carried values hand each other on in a cycle",
                                       where=self.plan.graph.name, found=arg)
        return v, dist

    # -- bodies -----------------------------------------------------------------------------------------
    def body(self, b: str, stages: set[int], steady: bool, defined: set[str] | None = None, drain: int = 0) -> list[str]:
        """The lines of body ``b`` running ``stages``; ``defined`` (in the prologue) the names assigned
        so far, so that only names that exist are rotated; ``drain``: the epilogue body's number (1, 2, ...),
        0 for the prologue and the steady body."""
        bd = Body(b, stages, self.turn if steady else None)
        if steady and self.steady_end is not None:        # a steady body starts as any steady body ends
            self.inflight, self.carry = list(self.steady_end[0]), list(self.steady_end[1])
        bd.outstanding = [(x, None) for x in self.inflight]
        for r, st, readers in self.carry:
            k = f"{b} - 1 - {st}"
            # a release carried from a steady body names an iteration that may not exist: in the next steady
            # body, and in an epilogue body that follows a short loop (n < S: the body before was the prologue)
            pred = "" if b.isdigit() or st <= self.S - 2 else f", pred=({k}) >= 0"
            bd.pending.append((r, k, {(o, sb, 1) for o, sb, _ in readers}, pred))
        issues = [a for a in self.asyncs.values() if a.issue.stage in stages]
        for x in sorted([x for x in self.items if x.stage in stages and x.op not in self._skip] + issues,
                        key=lambda e: e.issue.key if isinstance(e, AsyncTile) else e.key):
            if isinstance(x, AsyncTile):
                self._issue(bd, x)
            else:
                self._item(bd, x)
        if self.asyncs:       # one group per body, issued copies or none, so that a read's wait counts bodies
            bd.lines.append("async_copy.commit_group()")
        self._end(bd)
        if steady:
            self.steady_end = (list(self.inflight), list(self.carry))
        names = None if defined is None else defined | assigned(bd.lines)
        bd.lines += self.rotations(names, drain)
        self.last_b = b if not steady else "(twill_n - 1)"   # the loop variable is not defined after the loop
        return bd.lines

    def settle(self) -> list[str]:
        """Between the prologue and the steady loop: the dots the prologue left in flight that a steady body
        does not expect at its start (a steady body starts as any steady body ends: one that retires all
        its dots before writing an accumulator leaves none) retired, and the buffers they read released."""
        if self.steady_end is None:
            return []
        expected, carried = self.steady_end[0], {(r, st) for r, st, _ in self.steady_end[1]}
        extra = [i for i, d in enumerate(self.inflight) if d not in expected]
        if not extra:
            return []
        bd = Body(str(self.S - 1), set(), None)
        bd.outstanding = [(x, None) for x in self.inflight]
        bd.pending = [(r, f"{bd.b} - 1 - {st}", {(o, sb, 1) for o, sb, _ in readers}, "")
                      for r, st, readers in self.carry if (r, st) not in carried]
        self._wait_upto(bd, max(extra))
        return bd.lines

    def _end(self, bd: Body) -> None:
        """End of a body: what the body before left in flight is retired, and this body's dots the schedule
        completes within it (``_done_in_body``); its other dots stay in flight into the next (whose first
        reader waits for them), their names holding the accumulators the tensor core is still writing: only
        a dot may read those before the wait."""
        old = [i for i, (d, tok) in enumerate(bd.outstanding) if tok is None or self._done_in_body(d)]
        if old:
            self._wait_upto(bd, max(old))
        held = [(d, t) for d, t in bd.outstanding if not self._in_place(d)]
        if held:
            names = [self._name(d) for d, _ in held]
            for n in names:                            # read as n_p1 next body: rotated
                self.max_age[n] = max(self.max_age.get(n, 0), 1)
            toks = ", ".join(t for _, t in held if t)
            bd.lines.append(f"{', '.join(names)} = warpgroup_mma_wait({len(bd.outstanding)}, deps=({toks},))")
            for (d, _), n in zip(held, names):
                self.ctx.vals[n] = Val(n, self.ctx.ttype(self.ops[d.op].results[0]))
        self.inflight = [d for d, _ in bd.outstanding]
        # a release waits on to the next body only for its readers still in flight (read there at age 1)
        self.carry = [(r, int(k.rsplit("-", 1)[1]), readers - bd.done) for r, k, readers, _ in bd.pending]
        bd.pending = []

    def _done_in_body(self, d: Item) -> bool:
        """Dot ``d`` reads a register operand and the schedule completes it before its body ends (start slot
        plus cycles within II), or the next body writes the operand's next value before retiring it
        (``retire_in_body``, from ``OperandHazard``): it is retired there, so that the operand dies where the
        schedule's register model has it die (kept in flight into the next body, ptxas ran out of registers
        for the FA forward). An operand computed before the loop stays live through it whatever the dot does: such a
        dot stays in flight (a GEMM's mainloop: ``prefix_scores``' scores times each block of V)."""
        if not self._register_operand(d):
            return False
        if (d.op, d.subtile) in self.retire_in_body:
            return True
        if self._def(self.ops[d.op].operands[0], d.subtile) is None:
            return False         # an operand from before the loop lives through it: in flight, it costs no register
        node = instance(self.node_of[d.op], d.subtile)
        return d.key[0] + int(self.plan.graph.op(node).cycles or 0) < self.plan.schedule.ii

    def _register_operand(self, d: Item) -> bool:
        a = self.ops[d.op].operands[0]
        return not (d.op in self.plan.staging.reads or a in self.views or not self.ctx.fn.type_of(a).startswith("tensor<"))

    def _check_operand(self, bd: Body, d: Item) -> None:
        """Dot ``d`` of the body before, retired here: its register operand must not have been written again in this
        body first. The tensor core reads those registers until the wgmma retires, while the source holds them only
        up to the issue, so the next value may take them (run 35a: a GEMM whose A tile is squared in registers by
        inline PTX, 4-10 % wrong). ``OperandHazard``: written again with the dot retired in its own body."""
        if not self._register_operand(d):
            return
        j = self._def(self.ops[d.op].operands[0], d.subtile)
        if j is not None and j in bd.written:
            raise OperandHazard(d.op, d.subtile)

    def _name(self, d: Item) -> str:
        return sub_name(self.ops[d.op].results[0], d.subtile)

    def finish(self, read_after: set[str]) -> list[str]:
        """After the last body: the dots still in flight retired, their buffers released. Each under the names
        holding it that code after the loop reads (``read_after``: the loop results' names; the dot's own name
        where none is): a wait naming a copy nothing reads after the loop keeps a second set of its accumulator
        registers, which ptxas counts as non-wgmma code reading them and serialises every wgmma where a later
        loop accumulates into the result (``tests/corpus/tail_loop_gemm.py``, offline).

        Then every shared buffer the loop's dots read is used once more (``_keep_alive``: a ``ttg.local_dealloc``,
        as Triton's own pipeliner writes after its loops' last wait). Triton frees a buffer after its last use in
        the source, which for a buffer read by the last body's wgmma is the issue, not the retirement: a layout
        conversion's scratch written between the two took the K tile of tutorial 06's backward while its last
        wgmma still read it (dK and dV NaN on some runs, run 86)."""
        out = []
        names = []
        for d in self.inflight:
            if self._in_place(d):
                continue
            n = self._name(d)
            held = [n] + ([aged(n, 1)] if self.max_age.get(n, 0) >= 1 else [])
            names += [h for h in held if h in read_after] or [n]
        if names:
            out.append(f"{', '.join(names)} = warpgroup_mma_wait(0, deps=({', '.join(names)},))")
        elif self.inflight:
            out.append("warpgroup_mma_wait(0)")
        for d in self.inflight:
            out += self._split_released(d)
        split = self.plan.column_split
        if split is not None and len(self.part.subtiles) == 1:
            # the other sub-tiles' last reads of this one's staged operand and B tile (reused or handed back next)
            last = self.shared._k("twill_n - 1")
            out.append(f"mbarrier.wait(twill_xs_free.index({self.part.subtiles[0]}), ({last}) & 1)")
        if self.stores_in_flight:                         # the loop's last TMA stores still read their buffers
            out.append("tma.store_wait(0)")
        out += [f"{b}._keep_alive()" for b in self.read_buffers]   # a use once none is in flight
        pred = ", pred=twill_n > 0" if self.empty_loop else ""
        for r, st, _ in self.carry:
            out.append(self.shared.release(r, f"{self.last_b} - {st}", pred))
        self.inflight, self.carry = [], []
        return out

    def _issue(self, bd: Body, a: AsyncTile) -> None:
        """The cp.async copy of ``a``'s tile into its slot (``COPY_FLAG``; else a load through registers and a
        store: the launch's arguments too little aligned for cp.async)."""
        op, x = self.ops[a.load], a.issue
        for v in op.operands:
            self.ctx.vals[v] = self.value(v, x, bd.b)[0]
        ptrs, mask = self.ctx.tensor(op.operands[0]), mask_keyword(op, self.ctx, 1)
        other = f", other={self.ctx.scalar_or_tensor(op.operands[2])}" if len(op.operands) > 2 and mask else ""
        buf = f"{a.name}.index(({self.shared._k(f'{bd.b} - {x.stage}')}) % {a.depth})"
        start = len(bd.lines)
        copy, load_store = tile_copies(buf, ptrs, mask, other, op)
        bd.lines += [f"if {COPY_FLAG}:", f"    {copy}", "else:", f"    {load_store}"]
        if a.alloc is not None:      # stored through registers, a generic-proxy write the wgmma sees after a fence
            bd.lines.append("    fence_async_shared()")
        self._comment(bd, start, x, op)

    def _async_read(self, bd: Body, x: Item, a: AsyncTile) -> None:
        """``a``'s tile of this body's iteration read from its slot once its group has landed and every thread's
        copies are visible (a barrier, which also orders every thread's read of a slot before its next copy). A
        wgmma's tile (``AsyncTile.alloc``) is not read: its ``local_alloc`` names the slot, which the tensor core reads
        once cp.async's copies are waited for and a barrier followed (as Triton pipelines them, with no proxy fence), a
        copy through registers once the fence that follows its store (``_issue``) and that barrier."""
        direct = a.alloc is not None
        if bd.async_wait is None or bd.async_wait > a.wait:
            bd.lines += [f"async_copy.wait_group({a.wait})", "gl.thread_barrier()"]
            bd.async_wait = a.wait
        if direct:
            res = self.ops[a.alloc].results[0]
            name = sub_name(res, None)
            start = len(bd.lines)
            bd.lines.append(f"{name} = {a.name}.index(({self.shared._k(f'{bd.b} - {x.stage}')}) % {a.depth})")
            self.ctx.vals[name] = Val(name, self.ctx.ttype(res))
            self.view_of[name] = a.name
            bd.done |= {(x.op, None, 0), (a.alloc, None, 0)}
            self._comment(bd, start, x, self.ops[a.alloc])
            return
        res = self.ops[x.op].results[0]
        name = sub_name(res, x.subtile)
        k = self.shared._k(f"{bd.b} - {x.stage}")
        start = len(bd.lines)
        layout = self.ctx.layout(self.ctx.ttype(a.via).layout)
        bd.lines.append(f"{name} = {a.name}.index(({k}) % {a.depth}).load({layout})")
        self.ctx.vals[name] = Val(name, self.ctx.ttype(res))
        bd.done.add((x.op, x.subtile, 0))
        self._comment(bd, start, x, self.ops[x.op])

    def _item(self, bd: Body, x: Item) -> None:
        op = self.ops[x.op]
        if x.op in self.asyncs:
            self._async_read(bd, x, self.asyncs[x.op])
            return
        red = self.plan.reduction
        if red is not None and x.op == red.op:
            self._hand_off(bd, x, red)
            return
        staged = self.plan.staging.reads.get(x.op)
        # a staged A operand: the tile stored, not its (skipped) conversion to the dot-operand layout
        operands = {v: self.value(staged[0] if staged and k == 0 else v, x, bd.b) for k, v in enumerate(op.operands)}
        need = self._needed(bd, op, operands)
        if op.name not in vocab.DOTS and self.accumulators & set(op.results):
            need = len(bd.outstanding) - 1      # none in flight (the schedule has none of its group executing)
        branch = self._branch_wait(bd, op, operands, need)
        if need >= 0 and branch is None:
            self._wait_upto(bd, need)
        for v in op.operands:
            if v in self.views:
                r = self._ring(self.views[v][0], x.subtile)
                k = f"{bd.b} - {x.stage}"
                if r is not None and x.stage == self.span[r][0] and (r.name, k) not in bd.ready:
                    bd.ready.add((r.name, k))
                    bd.lines.append(self.shared.ready_wait(r, k))
                    if r.copied:    # cp.async wrote it through the generic proxy; wgmma reads through the async one
                        bd.lines.append("fence_async_shared()")
        self.ctx.subtile = x.subtile
        for v, (val, _, _) in operands.items():
            self.ctx.vals[v] = val
        if branch is not None:
            for v, local in branch[0].items():
                self.ctx.vals[v] = Val(local, operands[v][0].type)
        if x.op in self.plan.after_store:   # what a store of this iteration wrote, maybe from another warp's registers
            bd.lines.append("gl.thread_barrier()")
        start = len(bd.lines)
        self._to_readers_layout(bd, op)
        if op.name in vocab.DOTS and not is_sync_dot(op, self.ctx):
            self._dot(bd, x, op)
        elif x.op in self.plan.staging.allocs:
            self._alloc(bd, x, op)
        elif x.op in self.plan.staging.stores:
            self._tma_store(bd, x, op)
            bd.done.add((x.op, x.subtile, 0))
        else:
            self._op(bd, x, op)
            bd.done.add((x.op, x.subtile, 0))
        if branch is not None:
            _wait_in_branches(bd.lines, start, branch[1], set(branch[0].values()))
        bd.written.add((x.op, x.subtile))
        self._comment(bd, start, x, op)
        self._note_release(bd, x, op)

    def _hand_off(self, bd: Body, x: Item, red: Reduction) -> None:
        """A partial the reducer adds (``plan.Reduction``): once the reducer has read this consumer's partial
        of the iteration before, store this one into the consumer's buffer and say so."""
        val = self.value(red.value, x, bd.b)
        need = self._needed(bd, _Reads((red.value,)), {red.value: val})   # type: ignore[arg-type]
        if need >= 0:
            self._wait_upto(bd, need)
            val = self.value(red.value, x, bd.b)
        k = self.shared._k(f"{bd.b} - {x.stage}")
        start = len(bd.lines)
        buf = red.buffer(x.subtile)
        if red.split is not None:         # this sub-tile's columns of the CTA's sum
            buf += f".slice({(x.subtile or 0) * red.split.width}, {red.split.width}, dim=1)"
        bd.lines += [f"mbarrier.wait(twill_red_free.index(0), (({k}) & 1) ^ 1)",
                     f"{buf}.store({val[0].expr})",
                     "mbarrier.arrive(twill_red_ready.index(0))"]
        bd.done.add((x.op, x.subtile, 0))
        self._comment(bd, start, x, self.ops[x.op])

    def _to_readers_layout(self, bd: Body, op: IROp) -> None:
        """A value loaded in the compact layout (``codegen.gluon.compact``) converted to the layout its reader
        ``op`` has from Triton, once per body and age."""
        for v, name, line in self.ctx.relaid_operands(op):
            if not any(ln.startswith(f"{name} =") for ln in bd.lines):
                bd.lines.append(line)
            self.ctx.vals[v] = Val(name, self.ctx.ttype(v))

    def _branch_wait(self, bd: Body, op: IROp, operands: dict[str, tuple[Val, tuple[int, int | None] | None, int]],
                     need: int) -> tuple[dict[str, str], str] | None:
        """An ``if`` with no results reading dots of this body still in flight (a flat loop's epilogue under
        ``if k == last`` storing the accumulator, which the next tile's dot starts over with ``use_acc``): the
        wait goes inside the branches that read them, so the iterations that skip the branch leave the dot in
        flight. The operands' branch-local names and the wait line, or None (the wait comes before the op)."""
        if op.name != IF or op.results or need < 0:
            return None
        upto = bd.outstanding[:need + 1]
        local: dict[str, str] = {}
        deps: list[str] = []
        for v, (val, dd, age) in operands.items():
            if any(dd == (d.op, d.subtile) and tok is None and age == 1 for d, tok in upto):
                return None           # a dot of the body before read here: its wait is the body's own
            tok = next((t for d, t in upto if t and dd == (d.op, d.subtile)), None)
            if tok is not None and age == 0:
                local[v] = f"{val.expr}_w"
                deps.append(tok)
        if not local:
            return None
        depth = len(bd.outstanding) - need - 1
        return local, f"{', '.join(local.values())} = warpgroup_mma_wait({depth}, deps=({', '.join(deps)},))"

    def _needed(self, bd: Body, op: IROp, operands: dict[str, tuple[Val, tuple[int, int | None] | None, int]]) -> int:
        """The last outstanding dot ``op`` reads (-1: none): a dot of this body read at age 0, or one the
        body before left in flight read at age 1. A dot reading it as its accumulator does not wait (the
        tensor core runs dots in issue order): it reads the token, or the name still being written."""
        last = -1
        for i, (d, tok) in enumerate(bd.outstanding):
            for k, v in enumerate(op.operands):
                val, dd, age = operands[v]
                if dd != (d.op, d.subtile) or age != (0 if tok else 1):
                    continue
                if op.name in vocab.DOTS and k == 2:
                    if tok:
                        operands[v] = (Val(tok, val.type), dd, age)
                    continue
                last = max(last, i)
        return last

    def _comment(self, bd: Body, start: int, x: Item, op: IROp) -> None:
        """Each line an op wrote (barrier waits and comments aside) says which graph node, stage and partition
        it is: the profiler's region for the node and the replay's cost cover them all."""
        node = self.node_of.get(x.op)
        if node is None:
            return
        inst = node if x.subtile is None else f"{node}_s{x.subtile}"
        for i in range(start, len(bd.lines)):
            if not bd.lines[i].startswith(("mbarrier", "#")):
                bd.lines[i] += f"  # {inst}: stage {x.stage}, partition {self.part.index} (group {self.part.group})"

    def _op(self, bd: Body, x: Item, op: IROp) -> None:
        lines = plain(op, self.ctx) if op.name == IF else translate(op, self.ctx)
        for r in op.results:
            val = self.ctx.vals[r]
            new = sub_name(r, x.subtile)
            if val.broadcast and not _loop_variant(val.expr, self.ctx) and not self._aged_iterate(op, new):
                self.ctx.vals[new] = val               # a constant: written where it is used
                continue
            if val.broadcast:
                lines.append(f"{new} = {val.expr}")   # a scalar that varies per iteration: a name, aged like any
            elif val.expr != py_name(r):              # a view written as an expression (a memdesc_trans of the
                lines.append(f"{new} = {val.expr}")   # loop's own shared buffer): a name, aged like any
                if self.ctx.fn.type_of(r).startswith("!ttg.memdesc"):
                    self.view_of[new] = self._buffer(val.expr)
            else:
                lines = renamed_def(lines, py_name(r), new)
            self.ctx.vals[new] = Val(new, val.type, val.broadcast, pre=val.pre)
        bd.lines += lines

    def _aged_iterate(self, op: IROp, name: str) -> bool:
        """Whether ``op``'s scalar ``name`` is the iteration's (it reads the loop variable or a value of the body)
        and a later stage reads it aged: a name even where the prologue's body writes it as a literal
        (``0 + (0 - 0) * 512``), so that the name the next body reads (``_p1``) exists (group_quant_fp8)."""
        return self.max_age.get(name, 0) > 0 and any(v == self.iv or v in self.defined or v in self.carried
                                                     for v in op.operands)

    def _dot(self, bd: Body, x: Item, op: IROp) -> None:
        a, b, c = (self.ctx.vals[v] for v in op.operands[:3])
        staged = self.plan.staging.reads.get(x.op)
        if staged is not None:
            a = self._stage(bd, x, staged[0], staged[1], a)
        res = op.results[0]
        name = sub_name(res, x.subtile)
        use = ""
        if c.broadcast:          # a constant zero accumulator: made here, and not read
            c = Val(self.ctx.tensor(op.operands[2], like=res), c.type)
            use = "use_acc=False, "
        elif len(op.operands) > 3:   # the flag Triton's accumulator-init pass writes (frontend: a reset in the loop)
            use = f"use_acc={self.ctx.vals[op.operands[3]].expr}, "
        run = bd.turn.at.get((x.op, x.subtile)) if bd.turn is not None else None
        if run is not None and run[1]:
            flip = " ^ 1" if run[0] == 0 else ""
            base = f"{bd.turn.base} + " if bd.turn.base else ""
            bd.lines.append(f"mbarrier.wait(twill_turn.index({run[0]}), (({base}{bd.b} - {bd.turn.first}) & 1){flip})")
        split = self.plan.column_split
        if split is not None and x.op == split.dot:
            bd.lines += self._split_dot(bd, x, op, name, a.expr, b.expr, split)
        else:
            bd.lines.append(f"tok_{name} = warpgroup_mma({a.expr}, {b.expr}, {c.expr}, {use}is_async=True{imprecise(op)})")
        bd.outstanding.append((x, f"tok_{name}"))
        for v, val in zip(op.operands[:2], (a, b)):
            if val.smem or self.ctx.fn.type_of(v).startswith("!ttg.memdesc"):
                buf = self._buffer(val.expr)
                if buf not in self.read_buffers:
                    self.read_buffers.append(buf)
        if run is not None and run[2]:
            bd.lines.append(f"mbarrier.arrive(twill_turn.index({(run[0] + 1) % bd.turn.count}))")

    def _split_dot(self, bd: Body, x: Item, op: IROp, name: str, a: str, b: str, split: ColumnSplit) -> list[str]:
        """Dot ``x`` of a column split (``plan.ColumnSplit``): this sub-tile's columns of the whole sum, its own
        staged A operand times its B tile's column slice, then each other sub-tile's, once it is stored, chained on
        one accumulator (a fresh one: the partial is not carried)."""
        me, w = x.subtile or 0, split.width
        owner = {s: p.index for p in self.plan.consumers for s in p.subtiles}
        own = tile_suffix(self.part.index, me) + "_buf"
        if not b.endswith(own):
            raise UnsupportedError("the column split reads another sub-tile's B tile, which the Gluon back end names "
                                   "only where it is a tile loaded by TMA before the loop", where=source_where(op),
                                   found=b)
        t = self.ctx.ttype(op.results[0])
        whole = self.ctx.rewarped(t.layout)        # the accumulator's layout in this partition, then w columns wide
        narrow = dataclasses.replace(whole, instr_shape=(whole.instr_shape[0], min(whole.instr_shape[1], w))
                                     + tuple(whole.instr_shape[2:]))
        lay = self.ctx.layouts.setdefault(narrow.spell(), f"L{len(self.ctx.layouts)}")
        cols = f".slice({me * w}, {w}, dim=1)"
        perm = a[len(staged_name(split.a, me)):]
        k = self.shared._k(f"{bd.b} - {x.stage}")
        out = [f"tok_{name} = warpgroup_mma({a}, {b}{cols}, gl.full([{t.shape[0]}, {w}], 0, {gl_dtype(t.dtype)}, "
               f"layout={lay}), use_acc=False, is_async=True{imprecise(op)})"]
        for s in range(self.plan.subtiles):
            if s != me:
                other = b[:-len(own)] + tile_suffix(owner[s], s) + "_buf"
                out += [f"mbarrier.wait(twill_xs_ready.index({s}), ({k}) & 1)",
                        f"tok_{name} = warpgroup_mma({staged_name(split.a, s)}{perm}, {other}{cols}, tok_{name}, "
                        f"is_async=True{imprecise(op)})"]
                buf = self._buffer(other)
                if buf not in self.read_buffers:
                    self.read_buffers.append(buf)
        return out

    def _split_released(self, d: Item) -> list[str]:
        """Once split dot ``d`` retired: the other sub-tiles' staged A operands it read handed back."""
        split = self.plan.column_split
        if split is None or d.op != split.dot:
            return []
        return [f"mbarrier.arrive(twill_xs_free.index({s}))" for s in range(self.plan.subtiles) if s != (d.subtile or 0)]

    def _buffer(self, expr: str) -> str:
        """The buffer a shared-memory operand ``expr`` is a view of (``k_buf.index(i).permute((1, 0))``: ``k_buf``;
        a slot's name: its ring's)."""
        name = re.match(r"\w+", expr).group(0)
        if re.sub(r"_p\d+$", "", name) in self.view_of:      # a view's name aged into a later body
            name = re.sub(r"_p\d+$", "", name)
        while name in self.view_of:
            name = self.view_of[name]
        return name

    def _stage(self, bd: Body, x: Item, value: str, perm: tuple[int, ...] | None, tile: Val) -> Val:
        """The staged A operand of dot ``x``: the tile (``tile``, register value ``value``) stored into its
        buffer by the first reader of this body, once the dots of the body before that read the buffer
        have retired (the wgmma reads shared memory while it runs); the read is the buffer, or its view
        transposed."""
        buf = staged_name(value, x.subtile)
        if buf not in bd.stored:
            reads = self.plan.staging.reads
            old = [i for i, (d, tok) in enumerate(bd.outstanding)
                   if tok is None and d.subtile == x.subtile and reads.get(d.op, ("",))[0] == value]
            if old:
                self._wait_upto(bd, max(old))
            split = self.plan.column_split
            shared = split is not None and split.a == value
            k = self.shared._k(f"{bd.b} - {x.stage}")
            if shared:      # the other sub-tiles read it too: their reads of the iteration before retired
                bd.lines.append(f"mbarrier.wait(twill_xs_free.index({x.subtile}), (({k}) & 1) ^ 1)")
            bd.lines += [f"{buf}.store({tile.expr})", "fence_async_shared()"]
            if shared:
                bd.lines.append(f"mbarrier.arrive(twill_xs_ready.index({x.subtile}))")
            bd.stored.add(buf)
        if buf not in self.read_buffers:   # the wgmma reads it until ``finish`` waits (run 153: fa2_triton_bwd's dK NaN,
            self.read_buffers.append(buf)  # a conversion's scratch over its staged dS while the last dK wgmma ran)
        return Val(buf + (f".permute({perm})" if perm else ""), tile.type)

    def _alloc(self, bd: Body, x: Item, op: IROp) -> None:
        """The loop's ``ttg.local_alloc`` of a register tile (``plan._allocs``): stored into the buffer of its
        iteration and fenced for the tensor core; the result names that buffer. The buffers are as many as the
        iterations whose dots may still read one, so no wait comes before the store."""
        res = op.results[0]
        buf = alloc_name(self.plan, res, x.subtile, self.part.index)
        depth = next(b.depth for b in self.plan.staging.buffers if b.name == buf)
        name = sub_name(res, x.subtile)
        bd.lines += [f"{name} = {buf}.index(({bd.b} - {x.stage}) % {depth})",
                     f"{name}.store({self.ctx.tensor(op.operands[0])})", "fence_async_shared()"]
        self.view_of[name] = buf
        self.ctx.vals[name] = Val(name, self.ctx.ttype(res))
        bd.done.add((x.op, x.subtile, 0))

    def _tma_store(self, bd: Body, x: Item, op: IROp) -> None:
        """A TMA store of the loop (``plan._loop_store``): the tile into this iteration's buffer once the copy that
        read it two iterations before is done (at most one copy, the last iteration's, still in flight), fenced for
        the async proxy, then copied out; ``finish`` waits for the last copies."""
        desc, value = op.operands[0], op.operands[-1]
        buf = f"{stored_name(value, x.subtile)}.index(({bd.b} - {x.stage}) % 2)"
        if stored_name(value, x.subtile) not in self.read_buffers:   # the copy reads it until ``finish`` waits
            self.read_buffers.append(stored_name(value, x.subtile))
        m = re.search(r"\[(.*?)\]", op.text)
        coords = [self.ctx.vals[c.strip()].expr for c in m.group(1).split(",")] if m else []
        dim = self.plan.rows.descriptors.get(desc) if self.plan.rows is not None and x.subtile is not None else None
        if dim is not None and dim < len(coords):
            coords[dim] = f"{coords[dim]} + {x.subtile * (self.plan.rows.rows // self.plan.subtiles)}"
        bd.lines += ["tma.store_wait(1)", f"{buf}.store({self.ctx.tensor(value)})", "fence_async_shared()",
                     f"tma.async_copy_shared_to_global({py_name(desc)}, [{', '.join(coords)}], {buf})"]
        self.stores_in_flight = True

    def _wait_upto(self, bd: Body, last: int) -> None:
        """Retire every outstanding dot up to index ``last`` (the hardware retires wgmma groups in issue
        order): one wait, its depth the dots issued after, its results rebinding the names read (a dot
        of this body: its name; one in flight from the body before: its aged name); then every release
        whose readers have all retired."""
        if last >= 0:
            retired = bd.outstanding[:last + 1]
            depth = len(bd.outstanding) - last - 1
            named = [(d, tok) for d, tok in retired
                     if tok or (self._chain_token(bd, d) is None and not self._in_place(d))]
            names = [self._name(d) if tok else aged(self._name(d), 1) for d, tok in named]
            deps = [tok or n for (_, tok), n in zip(named, names)]
            if named:
                bd.lines.append(f"{', '.join(names)} = warpgroup_mma_wait({depth}, deps=({', '.join(deps)},))")
            else:       # only accumulations' previous dots, each consumed by its own next one: that one's token
                tok = next((t for t in (self._chain_token(bd, d) for d, _ in retired) if t), None)
                bd.lines.append(f"warpgroup_mma_wait({depth}" + (f", deps=({tok},))" if tok else ")"))
            for d, tok in retired:
                bd.lines += self._split_released(d)
                if not tok:
                    self._check_operand(bd, d)
                    bd.done.add((d.op, d.subtile, 1))
            for (d, tok), n in zip(named, names):
                if tok:
                    self.ctx.vals[n] = Val(n, self.ctx.ttype(self.ops[d.op].results[0]))
                bd.done.add((d.op, d.subtile, 0 if tok else 1))
            bd.outstanding = bd.outstanding[last + 1:]
        keep_pending = []
        for r, k, readers, pred in bd.pending:
            if readers <= bd.done:
                bd.lines.append(self.shared.release(r, k, pred))
            else:
                keep_pending.append((r, k, readers, pred))
        bd.pending = keep_pending

    def _in_place(self, d: Item) -> bool:
        """Dot ``d``'s result is read only as the accumulator of other dots of its iteration in its own stage (a K
        loop unrolled twice, ``loop_unroll_factor=2``: the first dot's sum goes on in the second), never carried nor
        read after the loop: the next dot consumed it in place, so no name holds it once it has retired. A reader a
        stage later reads it from the body before, by its aged name, which its retirement defines (``tf32x3``'s
        three passes, the first dot's sum read by the second a stage later: the name was never defined)."""
        r = self.ops[d.op].results[0]
        readers = [j for j, o in enumerate(self.ops) if r in o.operands]
        stage = {(x.op, x.subtile): x.stage for x in self.items}
        return bool(readers) and all(self.ops[j].name in vocab.DOTS and self.ops[j].operands[2:3] == (r,)
                                     and stage.get((j, d.subtile), stage.get((j, None))) == d.stage for j in readers)

    def _chain_token(self, bd: Body, d: Item) -> str | None:
        """With ``plan.chains``: the token of this body's dot that accumulates onto dot ``d`` of the body before
        (the same dot, its accumulator carried from its own result, which nothing else reads), once issued; the
        retirement of ``d`` then names that token instead of ``d``'s result, which the next dot consumed in place
        (named, ptxas serialises some loops' wgmmas: a weight-only GEMM dequantising its B tile); else None."""
        if not self.plan.chains:
            return None
        op = self.ops[d.op]
        if len(op.operands) < 3 or self.carried.get(op.operands[2]) != op.results[0]:
            return None
        readers = [o for o in self.ops if op.results[0] in o.operands or op.operands[2] in o.operands]
        if any(o is not op and o.name != vocab.YIELD for o in readers):
            return None
        return next((tok for x, tok in bd.outstanding if tok and x.op == d.op and x.subtile == d.subtile), None)

    def _note_release(self, bd: Body, x: Item, op: IROp) -> None:
        """After the last reader (in body order, at the last reader stage) of a tile: release it once done."""
        for v in op.operands:
            if v not in self.views:
                continue
            r = self._ring(self.views[v][0], x.subtile)
            if r is None or x.stage != self.span[r][1]:
                continue
            last = [y for y in self.items if y.stage == x.stage and y.op not in self._skip and any(
                u in self.views and self._ring(self.views[u][0], y.subtile) == r for u in self.ops[y.op].operands)]
            if last and last[-1] == x:
                bd.pending.append((r, f"{bd.b} - {x.stage}", {(y.op, y.subtile, 0) for y in last}, ""))
        self._wait_upto(bd, -1)

    def rotations(self, defined: set[str] | None = None, drain: int = 0) -> list[str]:
        """End of a body: every aged name takes the next younger one (only names that exist yet, when
        ``defined`` is given). The steady loop carries a name only as far back as a body reads it: a loop
        result read older after the epilogue (an accumulator of an early stage) is aged by the epilogue's
        bodies, not carried through the loop as a second copy of the accumulator (64 registers a thread
        for a 64x128 fp32 tile, which ptxas would have to keep and copy every iteration). Epilogue body
        ``drain`` ages a name up to ``drain`` steps further than the loop carries it."""
        out = []
        for name in sorted(set(self.max_age) | set(self.result_age)):
            top = max(self.max_age.get(name, 0), self.result_age.get(name, 0))
            cap = min(top, self.loop_age(name) + drain)
            for a in range(cap, 0, -1):
                if defined is None or aged(name, a - 1) in defined:
                    out.append(f"{aged(name, a)} = {aged(name, a - 1)}")
        if defined is not None:
            defined |= assigned(out)
        return out

    def loop_age(self, name: str) -> int:
        """How far back the steady loop carries ``name``: the oldest age a body reads it at, and what the
        epilogue's S - 1 bodies cannot age on their own for a loop result."""
        return max(self.max_age.get(name, 0), self.result_age.get(name, 0) - (self.S - 1))

    # -- iter_arg initial values and loop results -------------------------------------------------------
    def inits_before(self, b: int) -> list[str]:
        """Initial values of the iter_args whose first use is read from body ``b`` (b = -1: before body 0). An
        iter_arg ``dist`` iterations behind the body value it is handed (``source``) holds its initial value where
        that value's iteration -dist would be: under the name aged dist - 1."""
        out = []
        for arg in self.carried:
            y, dist = self.source(arg)
            for sub in sorted({x.subtile for x in self.items if x.op == self.defined.get(y)}, key=_subkey):
                d = self._def(y, sub)
                if d is None or self.stage_of[d] - 1 != b:
                    continue
                out.append(f"{aged(sub_name(y, d[1]), dist - 1)} = {initial(self.ctx, self.inits[arg], y, sub)}")
        return out

    def result(self, k: int, sub: int | None) -> str | None:
        """The name holding loop result k (iteration n-1's yield) after the last body, for sub-tile ``sub``."""
        y, dist = self.source(self.args[k])
        d = self._def(y, sub) if dist else None
        if d is None:
            return None
        age = self.S - self.stage_of[d] + dist - 1
        name = sub_name(y, d[1])
        self.result_age[name] = max(self.result_age.get(name, 0), age)
        return aged(name, age)


@dataclass(frozen=True)
class _Reads:
    """The operands a hand-off reads, as ``_needed`` takes an op's."""

    operands: tuple[str, ...]
    name: str = "twill.hand_off"


def assigned(lines: list[str]) -> set[str]:
    """Names the lines assign (``a = ...``, ``a, b = ...``)."""
    out: set[str] = set()
    for ln in lines:
        m = re.match(r"^([\w, ]+?) = ", ln)
        if m:
            out.update(n.strip() for n in m.group(1).split(","))
    return out


def initial(ctx: Context, init: str, like: str, sub: int | None) -> str:
    """An iter_arg's initial value ``init`` for sub-tile ``sub`` as a tensor like ``like``: a value of the
    code before the loop, or a result of the loop before (``KernelPlan.siblings``), kept under its sub-tile name."""
    ctx.subtile = sub
    val = ctx.vals.get(sub_name(init, sub)) or ctx.vals.get(py_name(init))
    if val is not None:
        ctx.vals[init] = val
    t = ctx.ttype(like)
    if t.kind != "tensor" and t.dtype not in ("f32", "i32", "i1"):
        # a scalar of another type: a literal made a value of that type, as the code for a short trip count writes
        # it (trident's non-causal attention backward: an i64 block-pointer offset started at 0, an int32 in the
        # pipelined branch and an int64 in the other, "Mismatched type ... between then block and else block")
        return held(ctx, init, like)
    return ctx.tensor(init, like=like)


def _subkey(s: int | None) -> int:
    return -1 if s is None else s


def _loop_variant(expr: str, ctx: Context) -> bool:
    """Whether a broadcast expression names a value (a variable), rather than being a literal."""
    return bool(re.search(r"[A-Za-z_]\w*", re.sub(r'float\("[^"]*"\)|True|False', "", expr)))
