"""Read TTGIR text (Triton's printed MLIR, with locations) into a light structure of loops and ops.

One text path serves both compiled kernels and ``.ttgir`` files users dump from Triton. Only what
graph building needs is parsed: each op's results, operands, name, result types, attributes text,
nested region text, and its location resolved to ``file:line`` and the source variable name.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from twill.errors import InputError

_VALUE = re.compile(r"%[A-Za-z0-9_$.\-]+(?:#\d+)?")
_LOC_REF = re.compile(r"loc\((#loc\d*)\)\s*$")
_LOC_FILE = re.compile(r'^loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)')
_LOC_NAME = re.compile(r'^loc\("((?:[^"\\]|\\.)*)"\((#loc\d*)\)\)')
_LOC_CALLSITE = re.compile(r"^loc\(callsite\((#loc\d*) at (#loc\d*)\)\)")
_LOC_FUSED = re.compile(r"^loc\(fused\[(.*)\]\)")
# Ops whose printed signature lists operand types only: their results are async tokens.
_TOKEN_RESULT_OPS = {"ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled", "ttng.tmem_store", "ttng.tmem_copy",
                     "ttg.async_copy_global_to_local", "ttg.async_commit_group", "ttg.async_wait"}
_OPNAME = re.compile(r'^(?:"([\w.]+)"|([a-z_][\w]*\.[\w.]+))')


@dataclass(frozen=True)
class Loc:
    file: str | None = None
    line: int | None = None
    name: str | None = None


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

    def result_type(self, value: str) -> str | None:
        """The type text of one of this op's results."""
        if value in self.results:
            i = self.results.index(value)
            return self.result_types[i] if i < len(self.result_types) else None
        return None


@dataclass
class Block:
    args: tuple[str, ...]            # for an scf.for body: (induction variable, iter_args...)
    inits: tuple[str, ...]           # the iter_args' initial values
    ops: list[IROp] = field(default_factory=list)


@dataclass
class Module:
    text: str
    ops: list[IROp]                  # top-level ops of the kernel function body (loops hold their bodies)
    num_warps: int | None
    target: str | None

    def loops(self) -> list[IROp]:
        """Every scf.for, outermost first, in program order."""
        out: list[IROp] = []

        def walk(ops: list[IROp]) -> None:
            for op in ops:
                if op.name == "scf.for":
                    out.append(op)
                if op.body is not None:
                    walk(op.body.ops)
        walk(self.ops)
        return out


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
                loc = Loc(inner.file, inner.line, m.group(1))
            elif m := _LOC_CALLSITE.match(s):
                # callee at caller: the caller's line is the user's source line
                callee, caller = res(m.group(1), depth + 1), res(m.group(2), depth + 1)
                loc = Loc(caller.file, caller.line, callee.name or caller.name)
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
    return tuple(t.strip() for t in _split_top(tail) if t.strip())


def _split_top(s: str) -> list[str]:
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


def _attr_dicts(line: str) -> dict[str, str]:
    """Attributes of one op line: ``<{props}>`` and ``{attrs}`` dictionaries outside types and quotes."""
    s = re.sub(r'"(?:[^"\\]|\\.)*"', lambda m: "\0" * len(m.group(0)), line)   # mask strings, keep offsets
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
            for part in _split_top(line[start:j - 1]):
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


def _depth_delta(line: str) -> int:
    # Braces inside attribute dictionaries open and close on one line; only region braces span lines.
    s = re.sub(r'"(?:[^"\\]|\\.)*"', "", line)
    return s.count("{") - s.count("}")


def parse(text: str, where: str = "ttgir") -> Module:
    """Parse a TTGIR module's text.

    Examples
    --------
    >>> m = parse(open("kernel.ttgir").read())   # doctest: +SKIP
    >>> [op.name for op in m.loops()[0].body.ops][:2]                # doctest: +SKIP
    ['tt.descriptor_load', 'ttg.local_alloc']
    """
    lines = text.splitlines()
    if not any("tt.func" in l for l in lines):
        raise InputError("not a TTGIR module", where=where, expected="a module with a tt.func", found="none")
    locs = _resolve_locs(lines)
    m = re.search(r'"ttg.num-warps"\s*=\s*(\d+)', text)
    num_warps = int(m.group(1)) if m else None
    t = re.search(r'ttg.target\s*=\s*"([^"]+)"', text)

    # Find the kernel function body and parse it recursively by line ranges.
    start = next(i for i, l in enumerate(lines) if "tt.func" in l and "{" in l)
    ops, _ = _parse_block(lines, start + 1, locs)
    return Module(text=text, ops=ops, num_warps=num_warps, target=t.group(1) if t else None)


def _loc_of(line: str, locs: dict[str, Loc]) -> Loc:
    m = _LOC_REF.search(line.rstrip())
    return locs.get(m.group(1), Loc()) if m else Loc()


def _parse_block(lines: list[str], i: int, locs: dict[str, Loc]) -> tuple[list[IROp], int]:
    """Parse ops from line ``i`` until the closing ``}`` of the enclosing region; return (ops, next i)."""
    ops: list[IROp] = []
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped or stripped.startswith("^bb") or stripped.startswith("//"):
            i += 1
            continue
        if stripped.startswith("}"):
            return ops, i
        head, eq, rest = stripped.partition(" = ")
        if eq and head.startswith("%") and not rest.startswith("loc("):
            results = _split_results(head)
            body_text = rest
        else:
            results, body_text = (), stripped
        nm = _OPNAME.match(body_text)
        name = (nm.group(1) or nm.group(2)) if nm else body_text.split(" ", 1)[0]
        first = i
        depth = _depth_delta(line)
        if name == "scf.for" and depth > 0:
            body_ops, j = _parse_block(lines, i + 1, locs)
            closing = lines[j]
            op_lines = lines[first:j + 1]
            header = stripped
            iv = re.match(r"scf\.for\s+(%[\w$.\-]+)\s*=", body_text)
            iter_pairs = re.findall(r"(%[\w$.\-]+)\s*=\s*(%[\w$.\-]+(?:#\d+)?)",
                                    header.split("iter_args(", 1)[1] if "iter_args(" in header else "")
            block = Block(args=((iv.group(1),) if iv else ()) + tuple(a for a, _ in iter_pairs),
                          inits=tuple(b for _, b in iter_pairs), ops=body_ops)
            operands = _outside_uses("\n".join(op_lines), results + block.args)
            ops.append(IROp(name=name, results=results, operands=operands, text=header,
                            full_text="\n".join(op_lines), result_types=_result_types(header.rsplit("{", 1)[0]),
                            loc=_loc_of(closing, locs), lineno=first + 1, body=block,
                            attrs=_attr_dicts(closing.strip().lstrip("}"))))
            i = j + 1
            continue
        j = i
        while depth > 0 and j + 1 < len(lines):
            j += 1
            depth += _depth_delta(lines[j])
        op_lines = [l.strip() for l in lines[first:j + 1]]
        last = op_lines[-1]
        defined = set(results)
        for l in op_lines[1:]:
            for m in re.finditer(r"(%[\w$.\-]+)(?::\d+)?\s*(?:=|:)", l):
                defined.add(m.group(1))
            if l.startswith("^bb"):
                defined.update(re.findall(r"%[\w$.\-]+", l))
        operands = _outside_uses("\n".join(op_lines), tuple(defined))
        types_src = last if len(op_lines) > 1 else body_text
        rtypes = _result_types(types_src)
        if name in _TOKEN_RESULT_OPS:
            rtypes = ("!ttg.async.token",) * len(results)
        elif name == "tt.load" and rtypes:   # printed with the pointer type: the result holds the pointee
            rtypes = tuple(re.sub(r"!tt\.ptr<([^,>]+)(?:,\s*\d+)?>", r"\1", t) for t in rtypes)
        elif len(rtypes) < len(results):       # e.g. tmem_load's second result, a token
            rtypes = rtypes + ("!ttg.async.token",) * (len(results) - len(rtypes))
        attr_src = body_text if len(op_lines) == 1 else op_lines[0] + " " + last.lstrip("})")
        ops.append(IROp(name=name, results=results, operands=operands, text=op_lines[0],
                        full_text="\n".join(op_lines), result_types=rtypes[:len(results)] if results else rtypes,
                        loc=_loc_of(last, locs), lineno=first + 1, attrs=_attr_dicts(attr_src)))
        i = j + 1
    return ops, i


def _outside_uses(text: str, defined: tuple[str, ...]) -> tuple[str, ...]:
    text = re.sub(r"\bloc\([^)]*\)", "", text)
    head_defs = set(defined)
    seen: list[str] = []
    # Skip the results on the left of the first " = ".
    _, eq, rhs = text.partition(" = ")
    body = rhs if eq and text.lstrip().startswith("%") else text
    for v in _VALUE.findall(body):
        if v not in head_defs and v not in seen:
            seen.append(v)
    return tuple(seen)


# -- types ---------------------------------------------------------------------------------------
_TENSOR = re.compile(r"^tensor<([0-9x]*?)x?([a-z][\w!.]*)\s*(?:,|>)")
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
