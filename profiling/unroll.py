"""The final TTGIR's loop holding Proton records, unrolled so that one iteration in K records (#17).

A record pair keeps the ops between its clock reads from interleaving with the ops around them (ptxas schedules
around the reads), and that costs the loop every iteration: the FA forward's exponent region alone costs x1.07 the
plain kernel (run 218, H100). Unrolled by K, the loop runs K copies of its body one after another, the records in
the last copy only: the kernel pays for them one iteration in K, and what a recorded iteration measures is what it
measured before (the same records around the same ops). A remainder loop, the body without records, runs the
iterations a whole group of K does not cover.

Why not the body twice under an ``scf.if`` (tried first, run 218): a pipelined loop carries an asynchronous wgmma
from one iteration to the next (the FA forward's P @ V, waited for in the next iteration), and the ``scf.if``'s
results merge the two copies' accumulators while that wgmma still writes them. PTX leaves reading them before
``wgmma.wait_group`` undefined; the FA forward sampled so computed a wrong result (error 0.73 with its QK region,
run 218 (c)) or faulted. Unrolled, the copies follow each other in one block: the accumulator flows from copy to
copy as it flows from iteration to iteration, through no merge.

Pure text (no Triton): ``profiling.insert.record_plan(every=K)`` applies it after the last TTGIR pass.
"""
from __future__ import annotations

import re

from twill.errors import CompileError
from twill.ir import ttgir, vocab

RECORD = "proton.record"
_V = r"%[\w$.\-]+"
_HEAD = re.compile(rf"^(\s*)(?:({_V})(?::(\d+))?\s*=\s*)?scf\.for\s+({_V})\s*=\s*({_V})\s+to\s+({_V})\s+step\s+({_V})"
                   rf"(?:\s+iter_args\((.*?)\)\s*->\s*(.*?))?\s*:\s*(\w+)\s*\{{\s*$")
_TOKEN = re.compile(rf"{_V}")
_BLOCK_ARG = re.compile(rf"({_V})\s*:")


def _defined(lines: list[str]) -> set[str]:
    """The SSA names the lines define: op results and block arguments (``^bb0(%a: f32, ...)``)."""
    out: set[str] = set()
    for line in lines:
        s = line.strip()
        if s.startswith("^"):
            out.update(_BLOCK_ARG.findall(s.split("(", 1)[1] if "(" in s else ""))
        else:
            out.update(ttgir.result_names(line))
    return out


def _rename(lines: list[str], env: dict[str, str]) -> list[str]:
    """Every SSA token of ``lines`` in ``env`` replaced by its value there (a token is a whole name: ``%a`` is not
    ``%a_1``; ``%a#0`` keeps its ``#0``)."""
    return [_TOKEN.sub(lambda m: env.get(m.group(0), m.group(0)), x) for x in lines]


def _types(text: str) -> list[str]:
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return [t.strip() for t in ttgir.split_top(text) if t.strip()]


def unroll_recording(text: str, every: int) -> str:
    """``text`` with its innermost loop holding records unrolled by ``every``, the records in the last copy
    (iteration i records where i % every == every - 1), and a remainder loop without records.

    Examples
    --------
    >>> print(unroll_recording(chr(10).join([
    ...     "%r = scf.for %i = %lb to %ub step %st iter_args(%a = %z) -> (i32)  : i32 {",
    ...     '  proton.record start "n"',
    ...     "  %b = arith.addi %a, %i : i32 loc(#loc1)",
    ...     '  proton.record end "n"',
    ...     "  scf.yield %b : i32 loc(#loc2)",
    ...     "} loc(#loc3)"]), 2), end="")
    %twill_span = arith.subi %ub, %lb : i32
    %twill_trips_0 = arith.ceildivsi %twill_span, %st : i32
    %twill_zero = arith.constant 0 : i32
    %twill_trips = arith.maxsi %twill_trips_0, %twill_zero : i32
    %twill_every = arith.constant 2 : i32
    %twill_groups = arith.divsi %twill_trips, %twill_every : i32
    %twill_covered = arith.muli %twill_groups, %twill_every : i32
    %twill_covered_span = arith.muli %twill_covered, %st : i32
    %twill_mid = arith.addi %lb, %twill_covered_span : i32
    %twill_step = arith.muli %st, %twill_every : i32
    %twill_c1 = arith.constant 1 : i32
    %twill_unrolled = scf.for %i = %lb to %twill_mid step %twill_step iter_args(%a = %z) -> (i32)  : i32 {
      %b_twill0 = arith.addi %a, %i : i32 loc(#loc1)
      %twill_off1 = arith.muli %st, %twill_c1 : i32
      %twill_iv1 = arith.addi %i, %twill_off1 : i32
      proton.record start "n"
      %b_twill1 = arith.addi %b_twill0, %twill_iv1 : i32 loc(#loc1)
      proton.record end "n"
      scf.yield %b_twill1 : i32 loc(#loc2)
    } loc(#loc3)
    %r = scf.for %i = %twill_mid to %ub step %st iter_args(%a = %twill_unrolled) -> (i32)  : i32 {
      %b = arith.addi %a, %i : i32 loc(#loc1)
      scf.yield %b : i32 loc(#loc2)
    } loc(#loc3)
    """
    lines = text.splitlines()
    for loop in reversed(ttgir.loops(lines)):          # the innermost loop holding records
        body = ttgir.region_ops(lines, loop)
        if any(o.name == RECORD for o in body):
            return "\n".join(_unrolled(lines, loop, body, every)) + "\n"
    raise CompileError("no loop holds a record", where="the final TTGIR", expected="a region inside a loop",
                       found="none")


def _unrolled(lines: list[str], loop: ttgir.TextOp, body: list[ttgir.TextOp], every: int) -> list[str]:
    m = _HEAD.match(lines[loop.first])
    if not m or body[-1].name != vocab.YIELD:
        raise CompileError("cannot unroll the loop to sample its iterations", where=lines[loop.first].strip()[:80],
                           expected="scf.for %i = %lb to %ub step %s [iter_args(...) -> (...)] : T { ... scf.yield }",
                           found="another form")
    ind, res, count, iv, lb, ub, st, iters, _, ivt = m.groups()
    y = body[-1]
    args = [a.split("=")[0].strip() for a in ttgir.split_top(iters or "") if a.strip()]
    yields = re.sub(r"\s*loc\([^)]*\)\s*$", "", " ".join(x.strip() for x in lines[y.first:y.attr_line + 1]))
    values = [v.strip() for v in yields.removeprefix(vocab.YIELD).partition(" : ")[0].split(",") if v.strip()]
    inner = lines[body[0].first:y.first]
    plain = [x for x in inner if not x.strip().startswith(RECORD)]
    own = _defined(inner)
    pre = ind + "  "
    head = [f"{ind}%twill_span = arith.subi {ub}, {lb} : {ivt}",
            f"{ind}%twill_trips_0 = arith.ceildivsi %twill_span, {st} : {ivt}",
            f"{ind}%twill_zero = arith.constant 0 : {ivt}",
            f"{ind}%twill_trips = arith.maxsi %twill_trips_0, %twill_zero : {ivt}",
            f"{ind}%twill_every = arith.constant {every} : {ivt}",
            f"{ind}%twill_groups = arith.divsi %twill_trips, %twill_every : {ivt}",
            f"{ind}%twill_covered = arith.muli %twill_groups, %twill_every : {ivt}",
            f"{ind}%twill_covered_span = arith.muli %twill_covered, {st} : {ivt}",
            f"{ind}%twill_mid = arith.addi {lb}, %twill_covered_span : {ivt}",
            f"{ind}%twill_step = arith.muli {st}, %twill_every : {ivt}"]
    head += [f"{ind}%twill_c{j} = arith.constant {j} : {ivt}" for j in range(1, every)]
    n = len(args)
    unrolled = "%twill_unrolled" + (f":{count}" if count else "")
    carried = [f"%twill_unrolled#{i}" if count else "%twill_unrolled" for i in range(n)]
    tail = lines[loop.first][m.end(7):]                       # " iter_args(...) -> (...)  : i32 {"
    out = head + [f"{ind}{unrolled + ' = ' if res else ''}scf.for {iv} = {lb} to %twill_mid step %twill_step{tail}"]
    outs: list[str] = list(args)                             # what the previous copy yields (the loop's arguments)
    for j in range(every):
        ren = {name: f"{name}_twill{j}" for name in own}
        if j:
            out += [f"{pre}%twill_off{j} = arith.muli {st}, %twill_c{j} : {ivt}",
                    f"{pre}%twill_iv{j} = arith.addi {iv}, %twill_off{j} : {ivt}"]
            ren.update(dict(zip(args, outs)))
            ren[iv] = f"%twill_iv{j}"
        out += _rename(inner if j == every - 1 else plain, ren)
        outs = _rename(values, ren)                          # ``%x#0`` too: its name renamed, its ``#0`` kept
    out += _rename(lines[y.first:y.attr_line + 1], ren)
    out.append(lines[loop.attr_line])
    rest_head = lines[loop.first][:m.start(5)] + "%twill_mid" + lines[loop.first][m.end(5):]
    if n:
        rest_head = rest_head.replace(f"iter_args({iters})", "iter_args(" + ", ".join(
            f"{a} = {c}" for a, c in zip(args, carried)) + ")")
    out += [rest_head] + plain + lines[y.first:loop.attr_line + 1]
    return lines[:loop.first] + out + lines[loop.attr_line + 1:]
