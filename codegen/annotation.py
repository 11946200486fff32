"""An annotated TTGIR read back and re-applied: the stages, clusters and partitions of its scheduled loop,
copied op by op onto the live module of a compilation (``codegen.compile``, the stored-schedule hook)."""
from __future__ import annotations

import re
from typing import Any

from codegen.annotate import MAX_STAGE
from codegen.partitions import PRIVATE, privatize, read_partitions, write_partitions
from twill.errors import CompileError
from twill.ir import ttgir, vocab

# Left out when an annotation is read: the yield, and Proton records (profiling inserts them).
SKIP = (vocab.YIELD, vocab.PROTON_RECORD)


def read_annotation(text: str) -> dict[str, Any]:
    """The schedule of an annotated TTGIR: ``{"ops": [(op name, stage, cluster), ...] in body order,
    "max_stage": n, "partitions": codegen.partitions.read_partitions(text), "private": bool, "loop":
    the annotated loop's index among the module's loops}``; Proton
    records, the yield and per-partition clones of loads (``private``: there are some) are left out."""
    lines = text.splitlines()
    for index, span in enumerate(op.span for op in ttgir.loops(lines)):
        if MAX_STAGE not in lines[span[1]]:
            continue
        m = re.search(re.escape(MAX_STAGE) + r" = (\d+)", lines[span[1]])
        ops, private = [], False
        for b in ttgir.region_ops(lines, span):
            if PRIVATE in lines[b.attr_line]:   # a per-partition clone (codegen.partitions.privatize)
                private = True
                continue
            if b.name in SKIP:
                continue
            a = lines[b.attr_line]
            ms, mc = re.search(r"loop\.stage = (\d+)", a), re.search(r"loop\.cluster = (\d+)", a)
            if not (ms and mc):
                raise CompileError("not an annotated TTGIR", where=f"line {b.first + 1}",
                                   expected="loop.stage and loop.cluster on every loop op", found=b.name)
            ops.append((b.name, int(ms.group(1)), int(mc.group(1))))
        return {"ops": ops, "max_stage": int(m.group(1)) if m else 0, "partitions": read_partitions(text),
                "private": private, "loop": index}
    raise CompileError("not an annotated TTGIR", expected=f"a loop with {MAX_STAGE}", found="none")


def apply_annotation(text: str, ann: dict[str, Any]) -> str:
    """Copy the stages and clusters (and partitions, if any) read by ``read_annotation`` onto the module
    text right before the pipeliner, op by op in body order (the op names must agree). Proton records take the cluster of
    the op they precede (start) or follow (end), in the last stage (Triton 3.6 cannot predicate them). The loops'
    invariant shared allocations are first moved before them, and an FMA dot's operand made before its loop loaded in
    it, as they were when the schedule was made (``twill.ir.ttgir.hoist_invariant_allocs``, ``sink_fma_operands``)."""
    lines = ttgir.sink_fma_operands(ttgir.hoist_invariant_allocs(text)[0])[0].splitlines()
    want = ann["ops"]
    spans = [op.span for op in ttgir.loops(lines)]
    found, hits = [], []
    for k, span in enumerate(spans):
        body = [b for b in ttgir.region_ops(lines, span) if b.name not in SKIP]
        if [b.name for b in body] == [w[0] for w in want]:
            hits.append(k)
        found.append(f"{len(body)} ops")
    # The annotated loop's own index first: sibling loops (a helper inlined twice) can hold the same ops.
    index = ann.get("loop")
    pick = index if index in hits else hits[0] if len(hits) == 1 and index is None else None
    if pick is None:
        raise CompileError("annotated TTGIR does not match the kernel", where="loop body",
                           expected=f"{len(want)} ops in the annotated order"
                                    + (f" at loop {index}" if index is not None else ""),
                           found=(f"loops {hits} match" if hits else ", ".join(found)) or "no loop")
    target = spans[pick]
    body = [b for b in ttgir.region_ops(lines, target) if b.name != vocab.YIELD]
    k, opened = 0, {}
    for i, b in enumerate(body):
        if b.name == vocab.PROTON_RECORD:
            m = re.search(r'proton\.record (start|end) "([^"]+)"', lines[b.first])
            name = m.group(2) if m else ""
            if m and m.group(1) == "start":
                opened[name] = want[min(k, len(want) - 1)][2]
            # a record cannot be predicated either (3.6): last stage, the cluster of its region's start
            ref = (vocab.PROTON_RECORD, ann["max_stage"], opened.get(name, 0))
        else:
            ref = want[k]
            k += 1
        line = ttgir.set_int_attr(lines[b.attr_line], "loop.stage", ref[1])
        lines[b.attr_line] = ttgir.set_int_attr(line, "loop.cluster", ref[2])
    lines[target[1]] = ttgir.set_int_attr(lines[target[1]], MAX_STAGE, ann["max_stage"])
    if ann.get("partitions"):   # a warp-specialized annotation (codegen.partitions)
        write_partitions(lines, target, body, *ann["partitions"])
        if ann.get("private"):   # tiles loaded once per reading partition, as in the annotation
            lines, _ = privatize(lines, target)
    return "\n".join(lines) + "\n"
