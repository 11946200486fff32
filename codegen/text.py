"""Small, structure-aware edits of printed TTGIR: find the line holding an op's attribute dictionary,
add attributes to it, replace integer attributes, and list the top-level ops of a loop body."""
from __future__ import annotations

import re
from dataclasses import dataclass

_RESULT = re.compile(r"^\s*(%[\w$.\-]+)(?::\d+)?(?:\s*,\s*%[\w$.\-]+)*\s*=\s*\"?([\w.]+)")
_NORESULT = re.compile(r"^\s*\"?([a-z_]+\.[\w.]+)\"?")


@dataclass(frozen=True)
class TextOp:
    """One op of the printed module: its first line, the line with its attribute dictionary and type
    (the same line unless the op has regions), its first result name (None for zero-result ops), name
    and nesting depth (indentation)."""

    first: int
    attr_line: int
    result: str | None
    name: str
    indent: int


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def ops_of(lines: list[str], begin: int = 0, end: int | None = None) -> list[TextOp]:
    """Every op between ``begin`` and ``end`` (line indices), regions' ops included, in text order."""
    end = len(lines) if end is None else end
    out: list[TextOp] = []
    stack: list[tuple[int, str | None, str, int]] = []   # open ops with regions
    for i in range(begin, end):
        line = lines[i]
        s = line.strip()
        if not s or s.startswith(("#", "//", "^")):
            continue
        ind = _indent(line)
        if s.startswith("}"):
            if stack and stack[-1][3] == ind:
                first, res, name, _ = stack.pop()
                # `} loc(...)` (scf.for / module) or `}) {attrs} : types loc(...)`
                out.append(TextOp(first, i, res, name, ind))
            continue
        m = _RESULT.match(line)
        if m:
            res, name = m.group(1), m.group(2)
        else:
            m2 = _NORESULT.match(line)
            if not m2:
                continue
            res, name = None, m2.group(1)
        if s.endswith("{") or s.endswith("({"):
            stack.append((i, res, name, ind))
        else:
            out.append(TextOp(i, i, res, name, ind))
    out.sort(key=lambda o: o.first)
    return out


def _type_colon(line: str) -> int:
    """Index of the depth-0 ``" : "`` that starts an op's type, or -1. On the closing line of a
    region op (``}) {attrs} : type``, ``} {attrs} loc(...)``), depth counts from after the ``})``/``}``."""
    depth, quote, i = 0, False, 0
    lead = line.lstrip(" ")
    if lead.startswith("}"):   # `}) {attrs} : type` (generic form) or `} {attrs} loc(...)` (scf.for)
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


def add_attrs(line: str, attrs: str) -> str:
    """``line`` with ``attrs`` (``name = value, ...``) added to its op's attribute dictionary."""
    cut = _type_colon(line)
    if cut < 0:   # no type (e.g. `} loc(...)` of a region op without results): before the location
        loc = line.rfind(" loc(")
        cut = loc if loc >= 0 else len(line)
    head, tail = line[:cut], line[cut:]
    h = head.rstrip()
    if h.endswith("}") and h.lstrip(" ") != "})" and _opens_attr_dict(h):
        return h[:-1] + ", " + attrs + "}" + tail
    return h + " {" + attrs + "}" + tail


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


def set_int_attr(line: str, name: str, value: int) -> str:
    """Replace (or add) the i32 attribute ``name`` of the op on ``line``."""
    pat = re.compile(re.escape(name) + r" = -?\d+ : i32")
    if pat.search(line):
        return pat.sub(f"{name} = {value} : i32", line, count=1)
    return add_attrs(line, f"{name} = {value} : i32")


def loop_span(lines: list[str], marker: str = "tt.scheduled_max_stage") -> tuple[int, int] | None:
    """(first, last) line indices of the ``scf.for`` whose closing line carries ``marker``
    (or, with ``marker`` "", the first ``scf.for``)."""
    for op in ops_of(lines):
        if op.name == "scf.for" and (not marker or marker in lines[op.attr_line]):
            return op.first, op.attr_line
    return None


def body_ops(lines: list[str], span: tuple[int, int]) -> list[TextOp]:
    """Top-level ops of the loop body at ``span`` (nested regions' ops left out), yield included."""
    first, last = span
    ops = ops_of(lines, first + 1, last)
    if not ops:
        return []
    top = min(o.indent for o in ops)
    return [o for o in ops if o.indent == top]


def uses(line: str) -> set[str]:
    """SSA names used by the op on ``line`` (its results left out)."""
    m = _RESULT.match(line)
    rhs = line[m.end():] if m else line
    rhs = rhs.split(" loc(")[0]
    return set(re.findall(r"%[\w$.\-]+", rhs))
