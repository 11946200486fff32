"""A perfect nest of ``scf.for`` loops carrying a value through both (torchvision's RoIAlign:
``for iy in range(grid_h): for ix in range(grid_w): acc += ...``; a convolution's loops over the filter's rows, its
columns and the channel blocks) written as one loop over the product of their trip counts, for the Gluon back end,
which keeps a loop around the scheduled one only where it carries scalars from tile to tile.

The pair flattened: an outer loop whose body is ops without regions (the "pre" ops), one inner loop, and a yield of
exactly the inner loop's results; the inner loop's initial values exactly the outer loop's carried arguments, read
nowhere else in the outer body; the inner loop's bounds defined outside the outer loop (a rectangular nest); both
steps positive integer constants; i32 induction variables; the pre ops without side effects (no store, no atomic,
no call), and loads among them only where the inner body writes no memory. The flat loop runs ``t`` over
``n_outer * n_inner`` trips, computes both induction variables from it (``t // n_inner`` and ``t % n_inner``, scaled
and offset by each loop's step and lower bound), then the pre ops (computed again every trip: what they compute
depends on the outer variable alone) and the inner body. Deeper nests flatten pair by pair, innermost first. Nothing
else of the module changes; the Triton route keeps the nest as written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from twill.ir import vocab
from twill.ir.ttgir import TextOp, region_ops, scan

_FOR = re.compile(r"^(?P<res>.*?)scf\.for\s+(?P<iv>%[\w$.\-#]+)\s*=\s*(?P<lb>%[\w$.\-#]+)\s+to\s+(?P<ub>%[\w$.\-#]+)"
                  r"\s+step\s+(?P<st>%[\w$.\-#]+)\s*(?:iter_args\((?P<args>.*?)\))?\s*(?P<tail>(?:->\s*\(.*\))?\s*"
                  r":\s*(?P<ivt>\w+)\s*\{)\s*$")
_CONST = re.compile(r"^\s*(%[\w$.\-]+)\s*=\s*arith\.constant\s+(-?\d+)\s*:\s*i32\b")
_VALUE = re.compile(r"%[\w$.\-]+(?:#\d+)?")
_SIDE_EFFECTS = ("tt.store", "tt.atomic", "tt.call", "tt.descriptor_store", "ttg.local_store", "tt.print",
                 "tt.assert", "gpu.barrier", "ttg.barrier")
_READS = ("tt.load", "tt.descriptor_load", "tt.descriptor_gather", "ttg.local_load")


@dataclass(frozen=True)
class Flattened:
    """The module's text with its nests flattened, and one line per nest saying what was done."""

    text: str
    said: tuple[str, ...]


def flatten_nests(text: str) -> Flattened | None:
    """``text`` with every perfect nest of the module (see the module's docstring) flattened into one loop, or None
    where there is none."""
    said: list[str] = []
    k = 0
    while True:
        lines = text.splitlines()
        found = _first_pair(lines)
        if found is None:
            break
        outer, inner, hoist, line = found
        text = _flattened(lines, outer, inner, hoist, k)
        said.append(line)
        k += 1
    return Flattened(text, tuple(said)) if said else None


def _constants(lines: list[str]) -> dict[str, int]:
    return {m.group(1): int(m.group(2)) for m in map(_CONST.match, lines) if m}


def _first_pair(lines: list[str]) -> tuple[TextOp, TextOp, list[int], str] | None:
    """The first (outer, inner) pair of loops that flattens, innermost pairs first, the lines of the outer body's ops
    its inner bounds read (``_hoisted``), and a line saying so."""
    consts = _constants(lines)
    loops = [o for o in scan(lines) if o.name == vocab.LOOP]
    for inner in sorted(loops, key=lambda o: -o.indent):
        outer = next((o for o in loops if o.first < inner.first and inner.attr_line < o.attr_line
                      and o.indent < inner.indent and inner in region_ops(lines, o)), None)
        hoist = _flattens(lines, outer, inner, consts) if outer is not None else None
        if outer is not None and hoist is not None:
            return outer, inner, hoist, (f"the loops at TTGIR lines {outer.first + 1} and {inner.first + 1} flattened into "
                                  "one loop over both's iterations (a perfect nest carrying its values through both)")
    return None


def _flattens(lines: list[str], outer: TextOp, inner: TextOp, consts: dict[str, int]) -> list[int] | None:
    """Where the pair flattens, the lines of the outer body's ops its inner bounds read (``_hoisted``); else None."""
    o, i = _FOR.match(lines[outer.first]), _FOR.match(lines[inner.first])
    if o is None or i is None or o.group("ivt") != "i32" or i.group("ivt") != "i32":
        return None
    if consts.get(o.group("st"), 0) <= 0 or consts.get(i.group("st"), 0) <= 0:
        return None
    body = region_ops(lines, outer)
    if len(body) < 2 or body[-1].name != "scf.yield" or body[-2] != inner:
        return None
    pre = body[:-2]
    if any(p.attr_line != p.first for p in pre):          # an op with regions before the inner loop
        return None
    o_args, i_args = _iter_args(o.group("args")), _iter_args(i.group("args"))
    if [init for _, init in i_args] != [a for a, _ in o_args]:
        return None
    yielded = _VALUE.findall(lines[body[-1].first].split(":")[0].split("scf.yield", 1)[1])
    if yielded != _results(i.group("res"), len(i_args)):
        return None
    pre_text = [lines[p.first] for p in pre]
    inner_text = lines[inner.first + 1:inner.attr_line]
    carried = {a for a, _ in o_args}
    if any(set(_VALUE.findall(t.split("=", 1)[-1])) & carried for t in pre_text + inner_text):
        return None
    if any(p.name.startswith(_SIDE_EFFECTS) for p in pre) or not inner_text:
        return None
    writes = any(s.name.startswith(_SIDE_EFFECTS) for s in scan(lines, inner.first + 1, inner.attr_line))
    if writes and any(p.name.startswith(_READS) for p in pre):
        return None
    return _hoisted(lines, outer, inner, pre)


def _hoisted(lines: list[str], outer: TextOp, inner: TextOp, pre: list[TextOp]) -> list[int] | None:
    """The lines of the pre ops the inner loop's bounds read (with what they read among the pre ops), to be computed
    before the flat loop: arithmetic on values defined outside the outer loop (a flattened inner pair's trip count);
    None where a bound reads the outer loop's variable or anything else it defines (the nest is not rectangular)."""
    i = _FOR.match(lines[inner.first])
    o = _FOR.match(lines[outer.first])
    assert i is not None and o is not None
    by = {v: p for p in pre for v in _defined(lines[p.first])}
    inside = {v for ln in lines[outer.first + 1:outer.attr_line] for v in _defined(ln)} | {o.group("iv")} | {
        a for a, _ in _iter_args(o.group("args"))}
    need, out = [i.group("lb"), i.group("ub"), i.group("st")], set()
    while need:
        v = need.pop()
        if v not in inside:
            continue
        p = by.get(v)
        if p is None or not p.name.startswith("arith."):
            return None
        if p.first not in out:
            out.add(p.first)
            rhs = lines[p.first].split("=", 1)[1].split(":")[0]
            need += _VALUE.findall(rhs)
    return sorted(out)


def _iter_args(text: str | None) -> list[tuple[str, str]]:
    return [(a.strip(), b.strip()) for a, b in (p.split("=", 1) for p in (text or "").split(",") if "=" in p)]


def _results(head: str, n: int) -> list[str]:
    """The values an op's result head (``%a = ``, ``%a:2 = ``) names, ``n`` of them."""
    m = re.match(r"\s*(%[\w$.\-]+)(?::(\d+))?\s*=", head)
    if m is None:
        return []
    return [m.group(1)] if not m.group(2) else [f"{m.group(1)}#{j}" for j in range(int(m.group(2)))]


def _defined(line: str) -> list[str]:
    head = line.split("=", 1)[0] if "=" in line.split("(", 1)[0] else ""
    base = _VALUE.findall(head)
    m = re.match(r"\s*(%[\w$.\-]+):(\d+)\s*=", line)
    return base + ([f"{m.group(1)}#{j}" for j in range(int(m.group(2)))] if m else [])


def _flattened(lines: list[str], outer: TextOp, inner: TextOp, hoist: list[int], k: int) -> str:
    """``lines`` with the pair written as one loop, the ops on ``hoist``'s lines computed before it."""
    consts = _constants(lines)
    o, i = _FOR.match(lines[outer.first]), _FOR.match(lines[inner.first])
    assert o is not None and i is not None
    loc = re.search(r"loc\(.*\)\s*$", lines[inner.attr_line])
    at = f" {loc.group(0).strip()}" if loc else ""
    pad = " " * outer.indent
    p = f"%twill_flat{k}"
    head = [lines[j].strip() for j in hoist]
    head += [f"{p}_c0 = arith.constant 0 : i32{at}", f"{p}_c1 = arith.constant 1 : i32{at}"]
    head += _trips(o, f"{p}_no", p, consts, at) + _trips(i, f"{p}_ni", p, consts, at)
    head.append(f"{p}_n = arith.muli {p}_no, {p}_ni : i32{at}")
    o_args, i_args = _iter_args(o.group("args")), _iter_args(i.group("args"))
    inits = dict(o_args)
    args = ", ".join(f"{a} = {inits[b]}" for a, b in i_args)
    loop = (f"{o.group('res')}scf.for {p}_t = {p}_c0 to {p}_n step {p}_c1"
            + (f" iter_args({args})" if args else "") + f" {i.group('tail')}")
    ivs = _iv(o, "arith.divsi", f"{p}_t", f"{p}_ni", f"{p}_qo", consts, at) + \
        _iv(i, "arith.remsi", f"{p}_t", f"{p}_ni", f"{p}_qi", consts, at)
    cut = inner.indent - outer.indent          # the inner body one level out, where the pre ops are
    body = [ln for j, ln in enumerate(lines[outer.first + 1:inner.first], outer.first + 1) if j not in hoist] + [ln[cut:] if ln[:cut].strip() == "" else ln.lstrip()
                                                 for ln in lines[inner.first + 1:inner.attr_line]]
    close = " " * outer.indent + "}" + at
    out = (lines[:outer.first] + [pad + h for h in head] + [pad + loop.strip()] + ["  " + pad + v for v in ivs]
           + body + [close] + lines[outer.attr_line + 1:])
    return "\n".join(out) + "\n"


def _trips(m: re.Match, name: str, p: str, consts: dict[str, int], at: str) -> list[str]:
    """Lines computing a loop's trip count (``max(0, ceil((ub - lb) / step))``) into ``name``."""
    lb, ub, st = m.group("lb"), m.group("ub"), m.group("st")
    if consts.get(lb) == 0 and consts.get(st) == 1:
        return [f"{name} = arith.maxsi {ub}, {p}_c0 : i32{at}"]
    s = consts[st]
    return [f"{name}_d = arith.subi {ub}, {lb} : i32{at}",
            f"{name}_s1 = arith.constant {s - 1} : i32{at}",
            f"{name}_e = arith.addi {name}_d, {name}_s1 : i32{at}",
            f"{name}_q = arith.divsi {name}_e, {st} : i32{at}",
            f"{name} = arith.maxsi {name}_q, {p}_c0 : i32{at}"]


def _iv(m: re.Match, op: str, t: str, n: str, tmp: str, consts: dict[str, int], at: str) -> list[str]:
    """Lines defining a loop's induction variable from the flat one: ``lb + (t op n) * step``."""
    iv, lb, st = m.group("iv"), m.group("lb"), m.group("st")
    if consts.get(lb) == 0 and consts.get(st) == 1:
        return [f"{iv} = {op} {t}, {n} : i32{at}"]
    return [f"{tmp} = {op} {t}, {n} : i32{at}", f"{tmp}_s = arith.muli {tmp}, {st} : i32{at}",
            f"{iv} = arith.addi {lb}, {tmp}_s : i32{at}"]
