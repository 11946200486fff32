"""``twill graph``: a kernel loop's dependence graph as text, JSON or Graphviz."""
from __future__ import annotations

import argparse
import sys

from twill.commands.common import add_arch, add_kernel_args, machine
from twill.errors import InputError, TwillError
from twill.graph import render
from twill.graph.extract import file_loops, graph_of
from twill.graph.loops import find_loop
from twill.ir.frontend import read_kernel
from twill.ir.ttgir import parse
from twill.graph.io import dump_graph
from twill.machine.cost import annotate_costs
from twill.util import atomic_write


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="kernel .py or a .ttgir dumped from Triton")
    add_arch(p)
    add_kernel_args(p)
    p.add_argument("--costs", action="store_true", help="annotate cycles from the machine model")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="graph JSON (schema twill.graph/1)")
    fmt.add_argument("--dot", action="store_true", help="Graphviz")
    p.add_argument("--loops", action="store_true",
                   help="list every loop of every kernel of the file (the text listing starts with it anyway)")
    p.add_argument("-o", "--out", default=None, help="write to a file instead of stdout")


def run(args: argparse.Namespace) -> int:
    m = machine(args)
    kir = read_kernel(args.file, m.target, args.kernel, dict(args.arg), dict(args.const), args.num_warps)
    for note in kir.meta.get("notes", ()):
        print(f"note: {note}", file=sys.stderr)
    if args.loops:       # the loops only: listed even when the default one cannot be scheduled
        try:
            _, info, choice = find_loop(parse(kir.text, where=args.file), args.loop, kir.kernel)
            index: int | None = info.index
        except TwillError as e:
            index, choice = None, f"none ({e})"
        text = render.loop_table(file_loops(args.file, m.target, kir, spec_file=args.spec), kir.kernel, index, choice)
    else:
        graph = graph_of(kir, m.target, args.loop, where=args.file)
        if args.costs:
            graph = annotate_costs(graph, m)
        if args.json or args.dot:
            print(f"scheduled: {graph.get('loop_choice')}", file=sys.stderr)
            text = dump_graph(graph) if args.json else render.dot(graph)
        else:
            text = render.loop_table(file_loops(args.file, m.target, kir, spec_file=args.spec), kir.kernel,
                                     graph.get("loop_index"), str(graph.get("loop_choice"))) + render.listing(graph)
    if args.out:
        try:
            atomic_write(args.out, text)
        except OSError as e:
            raise InputError("cannot write output", where=args.out, found=e.strerror) from None
    else:
        sys.stdout.write(text)
    return 0
