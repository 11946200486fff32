"""TTGIR text (Triton's printed MLIR, with locations): one scanner, a structured reader and the edits.

Every layer that reads or changes printed TTGIR goes through this module. ``scan`` finds every op
with its line span (one rule for regions: an op whose first line ends with ``{`` owns the lines up
to the ``}`` at its own indentation; ``} else {`` / ``} do {`` continue a region). ``parse`` builds
the structure graph building needs (each op's results, operands, result types, attributes, nested
loop bodies and the regions of other region ops, every function of the module, and each op's location
resolved to ``file:line`` and the source variable name), so a loop inside an ``scf.if``, an
``scf.while`` or a helper function that stays a call is found like any other. The edits
(``add_attrs``, ``set_int_attr``) change one op's attribute dictionary in place, so an annotated
module stays the printed module with attributes added.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Collection

from twill.errors import InputError
from twill.ir import vocab

_NAME = r"%[\w$.\-]+"
_VALUE = re.compile(_NAME + r"(?:#\d+)?")
_RESULTS_HEAD = re.compile(rf'^\s*((?:{_NAME}(?::\d+)?\s*,\s*)*{_NAME}(?::\d+)?)\s*=\s*"?([\w.]+)')
_NO_RESULT = re.compile(r'^\s*"?([a-z_]+\.[\w.]+)"?')
_LOC_REF = re.compile(r"loc\((#loc\d*)\)\s*$")
_LOC_FILE = re.compile(r'^loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)')
_LOC_NAME = re.compile(r'^loc\("((?:[^"\\]|\\.)*)"\((#loc\d*)\)\)')
_LOC_CALLSITE = re.compile(r"^loc\(callsite\((#loc\d*) at (#loc\d*)\)\)")
_LOC_FUSED = re.compile(r"^loc\(fused\[(.*)\]\)")
_OPNAME = re.compile(r'^(?:"([\w.]+)"|([a-z_][\w]*\.[\w.]+))')
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


# -- the scanner ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class TextOp:
    """One op of the printed module: its first line, the line holding its attribute dictionary and
    type (the closing line for an op with regions, else the first), its first result's name (None
    for an op without results), its name and indentation."""

    first: int
    attr_line: int
    result: str | None
    name: str
    indent: int

    @property
    def span(self) -> tuple[int, int]:
        return self.first, self.attr_line


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _head(line: str) -> tuple[str | None, str] | None:
    """(first result, op name) of an op's first line, or None when the line starts no op."""
    m = _RESULTS_HEAD.match(line)
    if m:
        return m.group(1).split(",")[0].strip().split(":")[0], m.group(2)
    m2 = _NO_RESULT.match(line)
    return (None, m2.group(1)) if m2 else None


def first_result(line: str) -> str | None:
    """The first result an op's line defines (``%5`` of ``%5:2 = ...``), None for an op without results."""
    head = _head(line)
    return head[0] if head else None


def scan(lines: list[str], begin: int = 0, end: int | None = None) -> list[TextOp]:
    """Every op between line indices ``begin`` and ``end``, ops nested in regions included, in text order.

    Examples
    --------
    >>> [o.name for o in scan(["%0 = arith.constant 1 : i32", "scf.for %i = %a to %b step %c {",
    ...                        "  %1 = arith.addi %0, %0 : i32", "} loc(#loc1)"])]
    ['arith.constant', 'scf.for', 'arith.addi']
    """
    end = len(lines) if end is None else end
    out: list[TextOp] = []
    stack: list[tuple[int, str | None, str, int]] = []   # ops whose regions are open
    for i in range(begin, end):
        line = lines[i]
        s = line.strip()
        if not s or s.startswith(("#", "//", "^")):
            continue
        ind = _indent(line)
        if s.startswith("}"):
            if stack and stack[-1][3] == ind and not s.endswith("{"):   # `} else {` continues the op
                first, res, name, _ = stack.pop()
                out.append(TextOp(first, i, res, name, ind))
            continue
        head = _head(line)
        if head is None:
            continue
        if s.endswith("{"):
            stack.append((i, head[0], head[1], ind))
        else:
            out.append(TextOp(i, i, head[0], head[1], ind))
    out.sort(key=lambda o: o.first)
    return out


def loops(lines: list[str]) -> list[TextOp]:
    """Every ``scf.for`` of the module, outermost first, in program order."""
    return [o for o in scan(lines) if o.name == vocab.LOOP]


def region_ops(lines: list[str], op: TextOp | tuple[int, int]) -> list[TextOp]:
    """Top-level ops of the regions of ``op`` (a loop body's ops, its yield included)."""
    first, last = op.span if isinstance(op, TextOp) else op
    ops = scan(lines, first + 1, last)
    if not ops:
        return []
    top = min(o.indent for o in ops)
    return [o for o in ops if o.indent == top]


def nested_ops(lines: list[str], op: TextOp) -> list[TextOp]:
    """Every op inside ``op``'s regions, at any depth (a reduction's combiner ops)."""
    return scan(lines, op.first + 1, op.attr_line)


def result_names(line: str) -> set[str]:
    """The results an op's first line defines, without ``:N`` / ``#i`` suffixes."""
    m = _RESULTS_HEAD.match(line)
    if not m:
        return set()
    return {r.split(":")[0] for r in re.findall(_NAME + r"(?::\d+)?", m.group(1))}


def line_uses(line: str) -> set[str]:
    """SSA names one line uses (its results and its location left out)."""
    m = _RESULTS_HEAD.match(line)
    rhs = line[m.end(1):] if m else line
    return set(re.findall(_NAME, rhs.split(" loc(")[0]))


def op_uses(lines: list[str], op: TextOp) -> set[str]:
    """SSA names ``op`` and its regions use, without ``#i`` suffixes."""
    out: set[str] = set()
    for i in range(op.first, op.attr_line + 1):
        out |= line_uses(lines[i])
    return {u.split("#")[0] for u in out}


# -- edits -------------------------------------------------------------------------------------
def _type_colon(line: str) -> int:
    """Index of the depth-0 ``" : "`` that starts an op's type, or -1. On the closing line of a
    region op (``}) {attrs} : type``, ``} {attrs} loc(...)``), depth counts from after the ``})``/``}``."""
    depth, quote, i = 0, False, 0
    lead = line.lstrip(" ")
    if lead.startswith("}"):
        i = len(line) - len(lead) + (2 if lead.startswith("})") else 1)
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ":" and depth == 0 and line[i - 1:i] == " " and line[i + 1:i + 2] == " ":
            return i - 1
        i += 1
    return -1


def _opens_attr_dict(head: str) -> bool:
    """Whether ``head`` ends with an attribute dictionary ``{...}`` that opens on this line."""
    depth = 0
    for j in range(len(head) - 1, -1, -1):
        c = head[j]
        if c == "}":
            depth += 1
        elif c == "{":
            depth -= 1
            if depth == 0:
                before = head[:j].rstrip()
                return bool(before) and not before.endswith(("(", "<", "="))
    return False


def add_attrs(line: str, attrs: str) -> str:
    """``line`` with ``attrs`` (``name = value, ...``) added to its op's attribute dictionary.

    Examples
    --------
    >>> add_attrs("%0 = arith.addf %a, %b : f32 loc(#loc)", "x = 1 : i32")
    '%0 = arith.addf %a, %b {x = 1 : i32} : f32 loc(#loc)'
    >>> add_attrs("%1 = tt.fp_to_fp %0, rounding = rtne : f32 -> f8E4M3FN loc(#loc)", "x = 1 : i32")
    '%1 = tt.fp_to_fp %0 {x = 1 : i32}, rounding = rtne : f32 -> f8E4M3FN loc(#loc)'
    """
    cut = _type_colon(line)
    if cut < 0:   # no type (e.g. `} loc(...)` of a region op without results): before the location
        loc = line.rfind(" loc(")
        cut = loc if loc >= 0 else len(line)
    head, tail = line[:cut], line[cut:]
    h = head.rstrip()
    clause = re.search(r", rounding = \w+$", h)   # tt.fp_to_fp prints its dictionary before its rounding clause
    if clause is not None:
        h, tail = h[:clause.start()], h[clause.start():] + " " + tail.lstrip()
        joined = h[:-1] + ", " + attrs + "}" if h.endswith("}") and _opens_attr_dict(h) else h + " {" + attrs + "}"
        return joined + tail
    if h.endswith("}") and h.lstrip(" ") != "})" and _opens_attr_dict(h):
        return h[:-1] + ", " + attrs + "}" + tail
    return h + " {" + attrs + "}" + tail


def set_int_attr(line: str, name: str, value: int) -> str:
    """Replace (or add) the i32 attribute ``name`` of the op on ``line``."""
    pat = re.compile(re.escape(name) + r" = -?\d+ : i32")
    if pat.search(line):
        return pat.sub(f"{name} = {value} : i32", line, count=1)
    return add_attrs(line, f"{name} = {value} : i32")


_VIEWS = frozenset({"ttg.memdesc_trans", "ttg.memdesc_reshape"})


def hoist_invariant_allocs(text: str) -> tuple[str, list[str]]:
    """``text`` with each ``ttg.local_alloc`` of a register tile defined outside its ``scf.for`` (and the
    transposes and reshapes of it) moved to just before the loop, and the names moved. Such an alloc makes an
    immutable buffer, the same every iteration; Triton's own passes hoist it after the pipeliner, so the
    pre-pipeline TTGIR still stores the tile once an iteration: FlagAttention's dK / dV kernel stored its K and V
    (a dot's B operand, loaded before the loop) into shared memory twice an iteration, and held them in registers
    across the loop to do so.

    Examples
    --------
    >>> t, moved = hoist_invariant_allocs("\\n".join([
    ...     "%k = tt.load %p : tensor<64x64xf16>",
    ...     "%r = scf.for %i = %a to %b step %c iter_args(%acc = %z) -> (tensor<64x64xf32>) : i32 {",
    ...     "  %s = ttg.local_alloc %k : (tensor<64x64xf16>) -> !ttg.memdesc<64x64xf16>",
    ...     "  %t = ttg.memdesc_trans %s {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16> -> !ttg.memdesc<64x64xf16>",
    ...     "  %q = ttg.local_alloc %acc : (tensor<64x64xf32>) -> !ttg.memdesc<64x64xf32>",
    ...     "  scf.yield %acc : tensor<64x64xf32>",
    ...     "}"]))
    >>> moved, t.splitlines()[1].split(" = ")[1][:15]
    (['%s', '%t'], 'ttg.local_alloc')
    """
    lines = text.split("\n")
    moved: list[str] = []
    while True:
        hit = _invariant_alloc(lines, set(moved))
        if hit is None:
            return "\n".join(lines), moved
        at, loop = hit
        line = lines.pop(at)
        lines.insert(loop.first, " " * loop.indent + line.lstrip(" "))
        moved.append(first_result(line) or "")


def _invariant_alloc(lines: list[str], moved: set[str]) -> tuple[int, TextOp] | None:
    """(line, loop) of the first op ``hoist_invariant_allocs`` moves: an alloc of a value from outside its loop, or a
    view of a moved alloc; None when there is none."""
    for loop in (o for o in scan(lines) if o.name == vocab.LOOP):
        inside = _defined_inside([ln.strip() for ln in lines[loop.first:loop.attr_line + 1]])
        for op in region_ops(lines, loop):
            if op.first != op.attr_line or op.result is None:
                continue
            uses = {u.split("#")[0] for u in line_uses(lines[op.first])}
            if not uses or uses & inside:
                continue
            if op.name == "ttg.local_alloc" or (op.name in _VIEWS and uses <= moved):
                return op.first, loop
    return None


_FMA_OPERAND = re.compile(rf"^(\s*)({_NAME}) = ttg\.convert_layout ({_NAME}) : (tensor<[^>]*?, #[\w.]+>) -> "
                          r"(tensor<[^,]*?, #ttg\.dot_op<\{opIdx = \d, parent = #blocked\d*[^}]*\}>>)(.*)$")
FMA_SHARED = "#twill_fma_shared"


def sink_fma_operands(text: str) -> tuple[str, list[str]]:
    """``text`` with each conversion of a register tile to an FMA dot's operand layout (``#ttg.dot_op`` of a
    ``#blocked`` parent) made before a loop and read only in it, written as Triton's own passes write it: the tile
    stored into shared memory where the conversion was, and loaded in the operand's layout in the loop, before the
    op that reads it (ReduceDataDuplication, then ReorderInstructions sinking the load). An FMA operand holds every
    element its thread's rows or columns meet: FLA's cumulative sum's [64, 64] triangular matrix took 512 registers
    a thread held through the loop, and ptxas, given that, allocated 32 registers and spilled 18 KB a thread.

    Examples
    --------
    >>> t, sunk = sink_fma_operands("\\n".join([
    ...     "%a = ttg.convert_layout %m : tensor<64x64xf32, #blocked1> -> "
    ...     "tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> loc(#loc1)",
    ...     "%r = scf.for %i = %x to %y step %z iter_args(%acc = %c) -> (tensor<64x64xf32, #blocked2>) : i32 {",
    ...     "  %d = tt.dot %a, %b, %acc : t",
    ...     "  scf.yield %d : tensor<64x64xf32, #blocked2>",
    ...     "}"]))
    >>> sunk, [ln.split(" = ")[1][:14] for ln in t.splitlines()[2:5]]
    (['%a'], ['ttg.local_allo', 'scf.for %i', 'ttg.local_load'])
    """
    lines = text.split("\n")
    sunk: list[str] = []
    i = -1
    while i + 1 < len(lines):            # a load inserted below moves the lines after it: read them all
        i += 1
        m = _FMA_OPERAND.match(lines[i])
        if m is None:
            continue
        ind, name, src, src_t, dst_t, tail = m.groups()
        at = _sole_loop_use(lines, name, i)
        if at is None:
            continue
        smem = src_t.replace("tensor<", "!ttg.memdesc<", 1).rsplit(", #", 1)[0] + f", {FMA_SHARED}, #smem>"
        lines[i] = f"{ind}{name}_fma = ttg.local_alloc {src} : ({src_t}) -> {smem}{tail}"
        lines.insert(at, " " * _indent(lines[at]) + f"{name} = ttg.local_load {name}_fma : {smem} -> {dst_t}{tail}")
        sunk.append(name)
    if sunk:
        lines = _with_shared_alias(lines)
    return "\n".join(lines), sunk


def _sole_loop_use(lines: list[str], name: str, at: int) -> int | None:
    """The line of the top-level op of the one loop body where every use of ``name`` (defined at line ``at``, outside
    it) is, its first use's; None where ``name`` is used outside a loop or in more than one."""
    found = None
    for loop in (o for o in scan(lines) if o.name == vocab.LOOP and o.first > at):
        if found is not None and found[0].first < loop.first <= found[0].attr_line:
            continue                     # a loop nested in the one found: the load goes in the outer loop's body
        users = [o for o in region_ops(lines, loop) if name in op_uses(lines, o)]
        if users and found is None:
            found = (loop, users[0].first)
        elif users:
            return None
    if found is None:
        return None
    loop, first = found
    outside = [j for j in range(len(lines)) if j != at and not loop.first <= j <= loop.attr_line
               and name in {u.split("#")[0] for u in line_uses(lines[j])}]
    return None if outside or name in line_uses(lines[loop.first]) else first


def _with_shared_alias(lines: list[str]) -> list[str]:
    """``lines`` with the shared layout ``sink_fma_operands`` stores in (Triton's own for such a tile) and the
    ``#smem`` space defined among the module's aliases where they are not."""
    text = "\n".join(lines)
    add = [] if f"{FMA_SHARED} =" in text else \
        [f"{FMA_SHARED} = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}}>"]
    if not re.search(r"^#smem = ", text, re.M):
        add.append("#smem = #ttg.shared_memory")
    last = max((j for j, ln in enumerate(lines) if re.match(r"^#[\w.]+ = #ttg\.", ln)), default=-1)
    return lines[:last + 1] + add + lines[last + 1:]


def rename(line: str, names: dict[str, str]) -> str:
    """``line`` with the SSA names in ``names`` replaced."""
    return re.sub(_NAME, lambda m: names.get(m.group(0), m.group(0)), line)


# -- the structured reader ---------------------------------------------------------------------
@dataclass(frozen=True)
class Loc:
    """Where an op comes from: the kernel's source line (for an op of an inlined ``@triton.jit`` helper, the line
    of the call in the kernel), and for such an op the helper's own file and line (``own_file``, ``own``)."""

    file: str | None = None
    line: int | None = None
    name: str | None = None
    own_file: str | None = None
    own: int | None = None

    def inlined(self) -> bool:
        """Whether the op was written in a helper inlined at ``line`` (its own line differs from the call's)."""
        return self.own is not None and (self.own, self.own_file) != (self.line, self.file)

    def text(self) -> str:
        """``f.py:79 (in a helper called at line 217)``, or ``f.py:79``; the file's last path component."""
        base = lambda f: f.rsplit("/", 1)[-1] if f else "source"     # noqa: E731
        if self.inlined():
            called = f"line {self.line}" if self.own_file == self.file else f"{base(self.file)}:{self.line}"
            return f"{base(self.own_file)}:{self.own} (in a helper called at {called})"
        return f"{base(self.file)}:{self.line}"


@dataclass
class IROp:
    """One op: ``results = name operands ... : types loc(...)``; nested regions kept as text."""

    name: str
    results: tuple[str, ...]
    operands: tuple[str, ...]        # every %value the op (and its regions) reads, defined outside it
    text: str                        # the op's own line (first line for region ops)
    full_text: str                   # all its lines
    result_types: tuple[str, ...]
    loc: Loc
    lineno: int                      # line in the TTGIR text (1-based)
    body: "Block | None" = None      # for scf.for: the loop body
    attrs: dict[str, str] = field(default_factory=dict)   # attribute name -> value text (properties too)
    regions: tuple["Block", ...] = ()  # other region ops (scf.if then/else, scf.while before/after): parsed

    def result_type(self, value: str) -> str | None:
        """The type text of one of this op's results."""
        if value in self.results:
            i = self.results.index(value)
            return self.result_types[i] if i < len(self.result_types) else None
        return None

    def nested(self) -> list["IROp"]:
        """Every op in this op's body and regions, at any depth, in program order."""
        out: list[IROp] = []
        for block in ((self.body,) if self.body is not None else ()) + self.regions:
            for o in block.ops:
                out.append(o)
                out.extend(o.nested())
        return out


@dataclass
class Block:
    args: tuple[str, ...]            # for an scf.for body: (induction variable, iter_args...)
    inits: tuple[str, ...]           # the iter_args' initial values
    ops: list[IROp] = field(default_factory=list)


@dataclass
class Func:
    """One ``tt.func`` of the module: the kernel (public) or a helper that stayed a call (private)."""

    name: str
    ops: list[IROp]
    public: bool
    lineno: int                      # line of its ``tt.func`` in the text (1-based)
    args: tuple[str, ...] = ()       # its arguments' SSA names


@dataclass(frozen=True)
class Site:
    """Where an op sits: its function and the region ops around it, outermost first."""

    func: str
    parents: tuple[IROp, ...] = ()

    @property
    def depth(self) -> int:
        """How many loops (``scf.for``, ``scf.while``) enclose it."""
        return sum(p.name in (vocab.LOOP, "scf.while") for p in self.parents)


@dataclass
class Module:
    text: str
    ops: list[IROp]                  # top-level ops of the kernel function body (loops hold their bodies)
    num_warps: int | None
    target: str | None
    funcs: list[Func] = field(default_factory=list)   # every function, the kernel first

    def walk(self) -> list[tuple[IROp, Site]]:
        """Every op of every function, nested ones included, in text order, each with its site."""
        out: list[tuple[IROp, Site]] = []

        def visit(ops: list[IROp], func: str, parents: tuple[IROp, ...]) -> None:
            for op in ops:
                out.append((op, Site(func, parents)))
                for block in ((op.body,) if op.body is not None else ()) + op.regions:
                    visit(block.ops, func, parents + (op,))
        for f in self.funcs or [Func("", self.ops, True, 0)]:
            visit(f.ops, f.name, ())
        out.sort(key=lambda p: p[0].lineno)
        return out

    def loops(self) -> list[IROp]:
        """Every scf.for of every function, outermost first, in program (text) order: the same loops,
        in the same order, as ``loops(lines)`` of the text."""
        return [op for op, _ in self.walk() if op.name == vocab.LOOP]

    def site(self, op: IROp) -> Site:
        """The function and enclosing region ops of ``op``."""
        for o, s in self.walk():
            if o is op:
                return s
        raise KeyError(op.lineno)



def closure(ops: list[IROp], want: set[str], stop: Collection[int] = ()) -> set[int]:
    """Indices of ``ops`` defining ``want`` or what those need (not what the ops at ``stop`` need)."""
    defined = {r: i for i, op in enumerate(ops) for r in op.results}
    need: set[int] = set()
    frontier = [defined[v] for v in want if v in defined]
    while frontier:
        i = frontier.pop()
        if i not in need:
            need.add(i)
            if i not in stop:
                frontier += [defined[v] for v in ops[i].operands if v in defined]
    return need

def loop_bounds(loop: IROp) -> tuple[str, str, str] | None:
    """An ``scf.for``'s lower bound, upper bound and step (SSA names); None where its header does not read so."""
    m = re.search(r"scf\.for\s+%[\w$.\-]+\s*=\s*(%[\w$.\-#]+)\s+to\s+(%[\w$.\-#]+)\s+step\s+(%[\w$.\-#]+)", loop.text)
    return (m.group(1), m.group(2), m.group(3)) if m else None


def int_constant(op: IROp) -> int | None:
    """The integer an ``arith.constant`` holds (a scalar or a splat ``dense<k>``); None for any other."""
    m = re.search(r"arith\.constant\s+(?:dense<)?(-?\d+)\b(?!\.)", op.text) if op.name == "arith.constant" else None
    return int(m.group(1)) if m else None


def _resolve_locs(lines: list[str]) -> dict[str, Loc]:
    raw: dict[str, str] = {}
    for line in lines:
        if line.startswith("#loc"):
            key, _, rest = line.partition(" = ")
            raw[key.strip()] = rest.strip()
    cache: dict[str, Loc] = {}

    def res(key: str, depth: int = 0) -> Loc:
        if key in cache:
            return cache[key]
        s = raw.get(key)
        loc = Loc()
        if s is not None and depth < 50:
            if m := _LOC_FILE.match(s):
                loc = Loc(m.group(1), int(m.group(2)))
            elif m := _LOC_NAME.match(s):
                inner = res(m.group(2), depth + 1)
                loc = Loc(inner.file, inner.line, m.group(1), inner.own_file, inner.own)
            elif m := _LOC_CALLSITE.match(s):
                # callee at caller: the caller's line is the user's source line
                callee, caller = res(m.group(1), depth + 1), res(m.group(2), depth + 1)
                own = (callee.own_file, callee.own) if callee.own is not None else (callee.file, callee.line)
                loc = Loc(caller.file, caller.line, callee.name or caller.name, *own)
            elif m := _LOC_FUSED.match(s):
                for part in re.findall(r"#loc\d*", m.group(1)):
                    cand = res(part, depth + 1)
                    if cand.line is not None:
                        loc = cand
                        break
        cache[key] = loc
        return loc

    for k in raw:
        res(k)
    return cache


def _split_results(head: str) -> tuple[str, ...]:
    """``%a, %b:2`` -> (%a, %b#0, %b#1)."""
    out: list[str] = []
    for part in head.split(","):
        part = part.strip()
        if not part:
            continue
        if ":" in part:
            name, n = part.split(":")
            out.extend(f"{name}#{i}" for i in range(int(n)))
        else:
            out.append(part)
    return tuple(out)


def split_top(s: str) -> list[str]:
    """``s`` split at the commas outside brackets (``<>``, ``()``, ``{}``, ``[]``)."""
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def _result_types(text: str) -> tuple[str, ...]:
    """Result types from an op's trailing type signature (after the last top-level `` : ``)."""
    sig = re.sub(r"\s*loc\(#loc\d*\)\s*$", "", text)
    if "->" in sig:
        tail = sig.rsplit("->", 1)[1]
    elif " to " in sig.rsplit(" : ", 1)[-1]:
        tail = sig.rsplit(" to ", 1)[1]      # casts: `%x : T1 to T2`
    elif " : " in sig:
        tail = sig.rsplit(" : ", 1)[1]
    else:
        return ()
    tail = tail.strip()
    if tail.startswith("(") and tail.endswith(")"):
        tail = tail[1:-1]
    return tuple(t.strip() for t in split_top(tail) if t.strip())


def _with_element(t: str, elem: str) -> str:
    """``t`` with its element type replaced by ``elem`` (``tensor<128x64xf32, #l>`` -> ``tensor<128x64xi1, #l>``)."""
    m = re.match(r"(tensor<(?:\d+x)*)([^,>]+)(.*)$", t)
    return m.group(1) + elem + m.group(3) if m else elem


def operand_type_texts(op: IROp) -> list[str]:
    """The operand types of ``op``'s trailing signature (``: A, B, C -> R``), as printed."""
    last = op.full_text.splitlines()[-1]
    sig = re.sub(r"\s*loc\(#loc\d*\)\s*$", "", last if last.lstrip().startswith("})") else op.text)
    if " : " not in sig:
        return []
    tail = sig.rsplit(" : ", 1)[1].split("->")[0].strip()
    if tail.startswith("(") and tail.endswith(")"):      # a region op's operands: ``(A, B) -> R``
        tail = tail[1:-1]
    return [c for chunk in split_top(tail.replace(" * ", ", ")) if (c := chunk.strip().strip("()"))]


def operand_types(op: IROp) -> list["TypeInfo"]:
    """The operand types of ``op``'s trailing signature (``: A, B, C -> R``), parsed."""
    return [type_info(t) for t in operand_type_texts(op)]


def stored_type(op: IROp) -> "TypeInfo | None":
    """The tile a store writes: its data operand's type, else (``tt.store`` prints the pointer type
    only) the pointer tensor's shape with the pointee's element type."""
    opt = operand_types(op)
    data = next((t for t in reversed(opt) if t.space == "regs" and not t.dtype.startswith("!tt.ptr")
                 and t.dtype != "i1"), None)      # an atomic's ``(pointers, values, mask)``: the values
    if data is not None:
        return data
    ptr = next((t for t in opt if t.dtype.startswith("!tt.ptr<")), None)
    if ptr is None:
        return None
    pointee = re.match(r"!tt\.ptr<([\w.]+)", ptr.dtype)
    return TypeInfo(ptr.space, ptr.shape, pointee.group(1) if pointee else ptr.dtype)


def _attr_dicts(line: str) -> dict[str, str]:
    """Attributes of one op line: ``<{props}>`` and ``{attrs}`` dictionaries outside types and quotes."""
    s = _STRING.sub(lambda m: "\0" * len(m.group(0)), line)   # mask strings, keep offsets
    out: dict[str, str] = {}
    angle, i = 0, 0
    while i < len(s):
        ch = s[i]
        props = s.startswith("<{", i)
        if angle == 0 and (props or (ch == "{" and (i == 0 or s[i - 1] == " "))):
            start = i + (2 if props else 1)
            depth, j = 1, start
            while j < len(s) and depth:
                depth += {"{": 1, "}": -1}.get(s[j], 0)
                j += 1
            if depth:
                break   # a region brace: the dictionary does not close on this line
            for part in split_top(line[start:j - 1]):
                k, eq, v = part.partition("=")
                if k.strip():
                    out[k.strip().strip('"')] = v.strip() if eq else "unit"
            i = j + (1 if props else 0)
            continue
        if ch == "<":
            angle += 1
        elif ch == ">" and (i == 0 or s[i - 1] != "-"):
            angle = max(0, angle - 1)
        i += 1
    return out


_DESC_NEW = re.compile(r"!tt\.tensordesc<(?!tensor<)([^<>]*)>")
_MADE_NEW = re.compile(r"(tt\.make_tensor_descriptor [^\n]*? : <[^<>\n]*>, <)(?!tensor<)([^<>\n]*)>")


def name_params(text: str, names: list[str]) -> str:
    r"""The kernel function's arguments named as its run-time Python parameters ``names``, in order. Triton names a
    parameter's SSA value after the last variable it was assigned to: torchvision's RoIAlign's
    ``roi_bin_grid_w = sampling_ratio`` prints the parameter as ``%roi_bin_grid_w``, and a launcher reading the
    kernel's arguments by those names asks for an argument the kernel has none of. A count that differs
    (a specialisation this does not know) leaves the text as it is; a parameter's name another value of the
    function holds gives that value a fresh one first.

    Examples
    --------
    >>> t = "tt.func public @k(%y: i32 loc(1), %p: !tt.ptr<f16>) {\n  %y_0 = arith.addi %y, %y : i32\n  tt.return\n}"
    >>> print(name_params(t, ["n", "p"]))
    tt.func public @k(%n: i32 loc(1), %p: !tt.ptr<f16>) {
      %y_0 = arith.addi %n, %n : i32
      tt.return
    }
    """
    lines = text.split("\n")
    heads = [o for o in scan(lines) if o.name == "tt.func" and " public " in f" {lines[o.first].strip()} "]
    if len(heads) != 1:
        return text
    f = heads[0]
    args = re.findall(rf"({_NAME}):", lines[f.first])
    if len(args) != len(names) or all(a == "%" + n for a, n in zip(args, names)):
        return text
    body = "\n".join(lines[f.first:f.attr_line + 1])

    def token(name: str) -> re.Pattern:
        return re.compile(re.escape(name) + r"(?![\w$.\-])")

    def rename(src: str, old: str, new: str) -> str:
        return token(old).sub(lambda _m: new, src)

    fresh = 0
    for i, (old, n) in enumerate(zip(args, names)):
        new = "%" + n
        if old == new:
            continue
        if token(new).search(body):       # another value (or a later argument) holds the name: it moves aside
            while token(f"%twill_{fresh}").search(body):
                fresh += 1
            aside = f"%twill_{fresh}"
            body = rename(body, new, aside)
            args = [aside if a == new else a for a in args]
        body = rename(body, args[i], new)
        args[i] = new
    return "\n".join(lines[:f.first] + body.split("\n") + lines[f.attr_line + 1:])


def canonical_types(text: str) -> str:
    """``text`` with Triton 3.9's spelling of a descriptor's type (``!tt.tensordesc<64x64xf16, #shared>``, and
    ``<64x64xf16, #shared>`` after ``tt.make_tensor_descriptor``'s element type) as 3.6 prints it
    (``!tt.tensordesc<tensor<64x64xf16, #shared>>``), the one every reader here takes.

    Examples
    --------
    >>> canonical_types("%d: !tt.tensordesc<128x64xf16, #shared> loc(#loc)")
    '%d: !tt.tensordesc<tensor<128x64xf16, #shared>> loc(#loc)'
    >>> canonical_types("%a = tt.make_tensor_descriptor %p, [%m, %k], [%s, %c1] : <f16>, <128x64xf16, #shared> loc(#l)")
    '%a = tt.make_tensor_descriptor %p, [%m, %k], [%s, %c1] : <f16>, <tensor<128x64xf16, #shared>> loc(#l)'
    """
    return _MADE_NEW.sub(r"\1tensor<\2>>", _DESC_NEW.sub(r"!tt.tensordesc<tensor<\1>>", text))


def parse(text: str, where: str = "ttgir") -> Module:
    """Parse a TTGIR module's text (descriptor types read as Triton 3.6 prints them: ``canonical_types``).

    Examples
    --------
    >>> m = parse(open("kernel.ttgir").read())   # doctest: +SKIP
    >>> [op.name for op in m.loops()[0].body.ops][:2]                # doctest: +SKIP
    ['tt.descriptor_load', 'ttg.local_alloc']
    """
    text = canonical_types(text)
    lines = text.splitlines()
    heads = [o for o in scan(lines) if o.name == "tt.func"]
    if not heads:
        raise InputError("not a TTGIR module", where=where, expected="a module with a tt.func", found="none")
    locs = _resolve_locs(lines)
    m = re.search(r'"ttg.num-warps"\s*=\s*(\d+)', text)
    t = re.search(r'ttg.target\s*=\s*"([^"]+)"', text)
    funcs = []
    for f in heads:
        name = re.search(r'@("(?:[^"\\]|\\.)*"|[\w$.\-]+)', lines[f.first])
        funcs.append(Func(name.group(1).strip('"') if name else "?",
                          [_read_op(lines, o, locs) for o in region_ops(lines, f)],
                          " public " in f" {lines[f.first].strip()} ", f.first + 1,
                          tuple(re.findall(rf"({_NAME}):", lines[f.first]))))
    funcs.sort(key=lambda fn: not fn.public)   # the kernel first: helpers that stayed calls are private
    return Module(text=text, ops=funcs[0].ops, num_warps=int(m.group(1)) if m else None,
                  target=t.group(1) if t else None, funcs=funcs)


def _loc_of(line: str, locs: dict[str, Loc]) -> Loc:
    m = _LOC_REF.search(line.rstrip())
    return locs.get(m.group(1), Loc()) if m else Loc()


def _read_op(lines: list[str], op: TextOp, locs: dict[str, Loc]) -> IROp:
    stripped = lines[op.first].strip()
    head, eq, rest = stripped.partition(" = ")
    if eq and head.startswith("%") and not rest.startswith("loc("):
        results, body_text = _split_results(head), rest
    else:
        results, body_text = (), stripped
    nm = _OPNAME.match(body_text)
    name = (nm.group(1) or nm.group(2)) if nm else body_text.split(" ", 1)[0]
    if name == vocab.LOOP and op.attr_line > op.first:
        return _read_loop(lines, op, locs, results, stripped, body_text)
    op_lines = [ln.strip() for ln in lines[op.first:op.attr_line + 1]]
    last = op_lines[-1]
    defined = set(results) | _defined_inside(op_lines[1:])
    rtypes = _result_types(last if len(op_lines) > 1 else body_text)
    if len(op_lines) > 1 and name in vocab.CONTROL_FLOW:   # `scf.if %c -> (T1, T2) {`: types on the first line
        rtypes = _result_types(body_text.rstrip("{ ")) if "->" in body_text else ()
    if name in vocab.TOKEN_RESULTS:
        rtypes = ("!ttg.async.token",) * len(results)
    elif name == vocab.POINTER_LOAD and rtypes:   # printed with the pointer type: the result holds the pointee
        rtypes = tuple(re.sub(r"!tt\.ptr<([^,>]+)(?:,\s*\d+)?>", r"\1", t) for t in rtypes)
    elif name == "tt.make_tensor_descriptor" and len(rtypes) == 2:   # printed `: <bf16>, <tensor<128x64xbf16, #s>>`
        rtypes = ("!tt.tensordesc" + rtypes[1],)
    elif name == "arith.select" and len(rtypes) == 2:   # printed `: condition type, value type`
        rtypes = rtypes[1:]
    elif name in ("arith.cmpi", "arith.cmpf") and rtypes:   # printed with its operands' type: the result is i1
        rtypes = tuple(_with_element(t, "i1") for t in rtypes)
    elif name == "tt.split" and len(rtypes) == 1:    # `%lo, %hi = tt.split %x : T -> R`: one type, both halves'
        rtypes = rtypes * len(results)
    elif len(rtypes) < len(results):       # e.g. tmem_load's second result, a token
        rtypes = rtypes + ("!ttg.async.token",) * (len(results) - len(rtypes))
    attr_src = body_text if len(op_lines) == 1 else op_lines[0] + " " + last.lstrip("})")
    regions = tuple(_read_region(lines, r, locs, body_text if k == 0 else None)
                    for k, r in enumerate(_region_spans(lines, op))) if name not in _COMBINERS else ()
    return IROp(name=name, results=results,
                operands=_outside_uses("\n".join(op_lines), tuple(defined), unique=len(op_lines) > 1),
                text=op_lines[0], full_text="\n".join(op_lines),
                result_types=rtypes[:len(results)] if results else rtypes,
                loc=_loc_of(last, locs), lineno=op.first + 1, attrs=_attr_dicts(attr_src), regions=regions)


# Region ops whose regions are combiners of one op (a reduction's max, a scan's sum): not parsed.
_COMBINERS = frozenset({vocab.REDUCE, "tt.scan", "tt.map_elementwise", "tt.elementwise_inline_asm"})


def _defined_inside(op_lines: list[str]) -> set[str]:
    """The values defined inside a region op's regions: results at a line's start (``%a, %b:2 = ...``; not a
    ``%x : type`` operand of a yield), block arguments (``^bb0(%x: f32, ...)``), loop variables."""
    defined: set[str] = set()
    for ln in op_lines:
        head = _RESULTS_HEAD.match(ln)
        if head and not ln[head.end(1):].lstrip().startswith("= loc("):
            defined.update(r.split(":")[0] for r in re.findall(_NAME + r"(?::\d+)?", head.group(1)))
        if ln.startswith("^bb"):
            defined.update(re.findall(_NAME, ln))
        defined.update(re.findall(rf"(?:scf\.for|iter_args\(|,)\s*({_NAME})\s*=", ln.split(" -> ")[0])
                       if ln.startswith(("scf.for", "%")) and "scf.for" in ln else ())
    return defined


def _region_spans(lines: list[str], op: TextOp) -> list[tuple[int, int]]:
    """The line spans (exclusive of their braces) of each region of a multi-line op: its regions are
    separated by ``} else {`` / ``} do {`` lines at the op's own indentation."""
    if op.attr_line <= op.first:
        return []
    cuts = [i for i in range(op.first + 1, op.attr_line) if _indent(lines[i]) == op.indent
            and lines[i].strip().startswith("}") and lines[i].rstrip().endswith("{")]
    bounds = [op.first] + cuts + [op.attr_line]
    return [(a, b) for a, b in zip(bounds, bounds[1:])]


def _read_region(lines: list[str], span: tuple[int, int], locs: dict[str, Loc], header: str | None) -> Block:
    """One region of a non-loop region op: its block arguments (an ``scf.while``'s before-region takes
    them from the op's header, others from a ``^bb`` line) and its top-level ops."""
    args: tuple[str, ...] = ()
    inits: tuple[str, ...] = ()
    if header is not None and header.startswith("scf.while"):
        pairs = re.findall(rf"({_NAME})\s*=\s*({_NAME}(?:#\d+)?)", header.split(")", 1)[0])
        args, inits = tuple(a for a, _ in pairs), tuple(b for _, b in pairs)
    first_line = next((lines[i].strip() for i in range(span[0] + 1, span[1]) if lines[i].strip()), "")
    if first_line.startswith("^"):
        args = tuple(re.findall(rf"({_NAME}):", first_line))
    return Block(args=args, inits=inits, ops=[_read_op(lines, o, locs) for o in region_ops(lines, span)])


def _read_loop(lines: list[str], op: TextOp, locs: dict[str, Loc], results: tuple[str, ...], header: str,
               body_text: str) -> IROp:
    op_lines = lines[op.first:op.attr_line + 1]
    iv = re.match(rf"scf\.for\s+({_NAME})\s*=", body_text)
    iter_pairs = re.findall(rf"({_NAME})\s*=\s*({_NAME}(?:#\d+)?)",
                            header.split("iter_args(", 1)[1] if "iter_args(" in header else "")
    body = Block(args=((iv.group(1),) if iv else ()) + tuple(a for a, _ in iter_pairs),
                 inits=tuple(b for _, b in iter_pairs),
                 ops=[_read_op(lines, o, locs) for o in region_ops(lines, op)])
    closing = lines[op.attr_line]
    inside = tuple(_defined_inside([ln.strip() for ln in op_lines[1:]]))
    return IROp(name=vocab.LOOP, results=results, operands=_outside_uses("\n".join(op_lines), results + body.args + inside),
                text=header, full_text="\n".join(op_lines), result_types=_result_types(header.rsplit("{", 1)[0]),
                loc=_loc_of(closing, locs), lineno=op.first + 1, body=body,
                attrs=_attr_dicts(closing.strip().lstrip("}")))


def _outside_uses(text: str, defined: tuple[str, ...], unique: bool = True) -> tuple[str, ...]:
    """The values ``text`` reads that it does not define, in order: each once (``unique``: a region op, whose
    regions may read a value many times), or every use, so that an op's own operands stay positional
    (``arith.mulf %x, %x`` reads ``%x`` twice)."""
    text = re.sub(r"\bloc\([^)]*\)", "", text)
    head_defs = set(defined)
    seen: list[str] = []
    # Skip the results on the left of the first " = ".
    _, eq, rhs = text.partition(" = ")
    body = rhs if eq and text.lstrip().startswith("%") else text
    for v in _VALUE.findall(body):     # ``%x#1`` reads ``%x``'s second result: defined where ``%x`` is
        if v.split("#")[0] not in head_defs and (v not in seen or not unique):
            seen.append(v)
    return tuple(seen)


_CONVERT_OF = re.compile(r"=\s*ttg\.convert_layout\s+(%[\w#.]+)\s*:\s*tensor<[^>]*>\s*->\s*(tensor<.*?>)(?:\s*loc\(|\s*$)")
_BROADCAST_DEF = re.compile(r"^\s*(%[\w#.]+)\s*=\s*tt\.broadcast\s+%[\w#.]+\s*:\s*(tensor<[^>]*>)")


def layout_conversions(lines: tuple[str, ...]) -> list[tuple[str | None, str]]:
    """The layout conversions among a graph node's TTGIR ``lines`` (not those to a dot operand's layout): for each,
    the type of the broadcast's source where it converts a broadcast of the same lines (a row of scales broadcast to
    the accumulator's shape, which the Gluon back end converts before broadcasting), else None; and its result type.

    Examples
    --------
    >>> layout_conversions(("%b = tt.broadcast %e : tensor<1x128xf32, #blocked> -> tensor<64x128xf32, #blocked>",
    ...                     "%c = ttg.convert_layout %b : tensor<64x128xf32, #blocked> -> tensor<64x128xf32, #mma>"))
    [('tensor<1x128xf32, #blocked>', 'tensor<64x128xf32, #mma>')]
    """
    rows = {mm.group(1): mm.group(2) for line in lines if (mm := _BROADCAST_DEF.match(line))}
    return [(rows.get(mm.group(1)), mm.group(2)) for line in lines
            if (mm := _CONVERT_OF.search(line)) and "dot_op" not in line]


# -- types ---------------------------------------------------------------------------------------
_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8,
          "f8E4M3FN": 1, "f8E5M2": 1, "f8E4M3FNUZ": 1, "f8E5M2FNUZ": 1}


@dataclass(frozen=True)
class TypeInfo:
    space: str                       # "regs" (distributed tensor), "smem", "tmem", "token", "scalar"
    shape: tuple[int, ...]
    dtype: str

    @property
    def elements(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def bytes(self) -> int:
        return self.elements * _BYTES.get(self.dtype, 4)


def type_info(t: str) -> TypeInfo:
    """Memory space, shape and element type of a printed TTGIR type.

    Examples
    --------
    >>> type_info("tensor<128x64xf16, #blocked>")
    TypeInfo(space='regs', shape=(128, 64), dtype='f16')
    """
    t = t.strip()
    for prefix, space in (("!ttg.memdesc<", "smem"), ("tensor<", "regs")):
        if not t.startswith(prefix):
            continue
        inner = t[len(prefix):]
        if space == "smem" and "tensor_memory" in inner:
            space = "tmem"
        dims, rest = [], inner
        while (mm := re.match(r"(\d+)x", rest)):
            dims.append(int(mm.group(1)))
            rest = rest[mm.end():]
        dtype = re.match(r"(!tt\.ptr<[^>]*>|[\w.]+)", rest)
        return TypeInfo(space, tuple(dims), dtype.group(1) if dtype else "?")
    if "async.token" in t:
        return TypeInfo("token", (), "token")
    return TypeInfo("scalar", (), t)
