"""``twill graph``: a kernel loop's dependence graph as text, JSON or Graphviz."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ARCHS = ("h100", "h200", "b200")


def _pair(s: str) -> tuple[str, str]:
    if "=" not in s:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, found {s!r}")
    k, v = s.split("=", 1)
    return k.strip(), v.strip()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="kernel .py or a .ttgir dumped from Triton")
    p.add_argument("--arch", required=True, metavar="{" + ",".join(ARCHS) + "}",
                   help="target GPU (checked in run, so a wrong name is one error line)")
    p.add_argument("--kernel", default=None)
    p.add_argument("--loop", type=int, default=None, help="loop index (program order, outermost first)")
    p.add_argument("--arg", type=_pair, action="append", default=[], metavar="NAME=TYPE")
    p.add_argument("--const", type=_pair, action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--num-warps", type=int, default=None)
    p.add_argument("--costs", action="store_true", help="annotate cycles from the machine model")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="graph JSON (schema twill.graph/1)")
    fmt.add_argument("--dot", action="store_true", help="Graphviz")
    p.add_argument("-o", "--out", default=None, help="write to a file instead of stdout")


def write_atomic(path: str, text: str) -> None:
    """Write through a temporary file in the same directory and rename: never half-written."""
    from twill.errors import InputError

    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp{os.getpid()}")
    try:
        tmp.write_text(text)
        tmp.replace(target)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise InputError("cannot write output", where=path, found=e.strerror) from None


def run(args: argparse.Namespace) -> int:
    from twill.graph import render
    from twill.graph.io import dump_graph
    from twill.errors import InputError
    from twill.ir.frontend import graph_for_file

    if args.arch not in ARCHS:
        raise InputError("unknown arch", expected=" | ".join(ARCHS), found=args.arch)
    graph, _ = graph_for_file(args.file, args.arch, kernel=args.kernel, loop=args.loop, args=dict(args.arg),
                              consts=dict(args.const), num_warps=args.num_warps)
    if args.costs:
        from twill.machine.cost import annotate_costs
        from twill.machine.model import load_machine

        graph = annotate_costs(graph, load_machine(args.arch))
    text = dump_graph(graph) if args.json else render.dot(graph) if args.dot else render.listing(graph)
    if args.out:
        write_atomic(args.out, text)
    else:
        sys.stdout.write(text)
    return 0
