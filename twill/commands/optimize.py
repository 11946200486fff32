"""``twill optimize``: extract, cost, normalise, solve, check, and write schedule / IR / HTML."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from codegen.gluon.calibration import gluon_calibration_path, load_for
from twill.commands.common import add_arch, add_kernel_args, check_writable_dir, machine
from twill.errors import InputError
from twill.machine.calibrate import load_calibration
from twill.pipeline import OptimizeOptions, OptimizeResult, optimize, write_outputs
from twill.schedule import text

# The flags that change what is solved, and how each names the default output folder
# (twill-out/<kernel>-<arch>[-...]): a variant never overwrites the main job's folder.
NAMED_FLAGS = (("kernel", "{}"), ("loop", "loop{}"), ("swp_only", "swp"), ("num_warps", "w{}"),
               ("warp_groups", "wg{}"), ("reg_limit", "reg{}"), ("no_cross_warp", "no-cross-warp"),
               ("no_realisability", "no-realisability"), ("profile", "profiled"), ("calibrated", "calibrated"),
               ("backend", "{}"), ("joint_backend", "joint-{}"), ("normalize_bound", "u{}"), ("emit", "{}"),
               ("row_split", "rows{}"), ("tc_order", "tc-order"), ("tree_reductions", "tree"), ("no_reducer", "no-reducer"),
               ("lookahead", "lookahead"), ("async_copies", "async-copies"), ("issued_loads", "issued-loads"),
               ("sequential_groups", "seq"), ("persistent", "persistent-{}"), ("async_tiles", "async-tiles-{}"),
               ("own_tiles", "own-tiles-{}"), ("prefetch", "prefetch{}"), ("short_loops", "short-{}"),
               ("one_stage", "one-stage-{}"), ("extra_stages", "stages+{}"))
DEFAULTS = {"backend": "cpsat", "joint_backend": "cpsat", "normalize_bound": 300, "emit": "auto", "persistent": "auto",
            "async_tiles": "auto", "own_tiles": "auto", "prefetch": "auto", "short_loops": "auto", "one_stage": "auto",
            "extra_stages": 0}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="kernel .py, a .ttgir dumped from Triton, or a graph .json (twill graph --json)")
    add_arch(p)
    p.add_argument("-o", "--out", default=None,
                   help="output directory (default: twill-out/<kernel>-<arch>, with a suffix per flag that changes "
                        "the problem, e.g. twill-out/fa3-h100-swp for --swp-only)")
    p.add_argument("--force", action="store_true",
                   help="replace an output directory that another run (other file, arch or flags) wrote")
    p.add_argument("--swp-only", action="store_true", help="modulo schedule only, no warp assignment")
    p.add_argument("--backend", default="cpsat", choices=("cpsat", "cpsat-slots", "scip"),
                   help="modulo backend: cpsat (slot integers, circular intervals), cpsat-slots (Figure 4 time-indexed), scip (time-indexed ILP)")
    p.add_argument("--joint-backend", default="cpsat", choices=("cpsat", "z3"), help="joint problem backend")
    p.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                   help="deterministic seconds per solver call (default 60): the solver's own work count (CP-SAT's "
                        "deterministic time; z3's rlimit, SCIP's simplex iterations converted), not the clock, so "
                        "the same run gives the same schedule on every machine; on the 2-core reference machine a "
                        "deterministic second of a large joint model takes about four CPU seconds. A wall-clock "
                        "safety cap, 100 s per deterministic second plus 60 s, stops pathological solves (the result "
                        "then says it is not reproducible)")
    p.add_argument("--total-time", type=float, default=None, metavar="S",
                   help="deterministic seconds for the whole joint search, the sum over every solver call it makes "
                        "(default: ten --time-limits; the Gluon route's searches of all row splits: 30); when it "
                        "runs out the best schedule found so far is kept, with what was proved")
    p.add_argument("--normalize-bound", type=int, default=300, metavar="U",
                   help="upper bound on the sum of normalised costs (paper 5.2, default 300)")
    p.add_argument("--profile", default=None, help="measured profile JSON from `twill profile`")
    p.add_argument("--calibrated", action="store_true",
                   help="cost ops with the constants fitted by `twill calibrate` (twill/machine/calibration/<arch>.toml) "
                        "where it has one for their class, the machine model elsewhere; a missing file is an error. "
                        "The Gluon route uses <arch>-gluon.json there (bench/gluon_calibrate.py: fitted from the "
                        "generated kernels' profiles), required with --emit gluon")
    add_kernel_args(p)
    p.add_argument("--warp-groups", type=int, default=None, help="warp groups available to the joint problem")
    p.add_argument("--reg-limit", type=int, default=None, help="registers per thread budget (joint problem)")
    p.add_argument("--no-cross-warp", action="store_true", help="forbid cross-warp communication")
    p.add_argument("--no-realisability", action="store_true",
                   help="ignore the installed Triton's pipeliner constraints (the schedule may not compile)")
    p.add_argument("--emit", default="auto", choices=("auto", "gluon", "triton"),
                   help="what to write: auto (on Hopper, twill's Gluon kernel and the annotated TTGIR for Triton; "
                        "elsewhere the annotated TTGIR), gluon, or triton")
    p.add_argument("--row-split", type=int, default=None, metavar="N",
                   help="row sub-tiles of the Gluon kernel (default: searched, the best predicted wins)")
    p.add_argument("--tc-order", action="store_true",
                   help="Gluon kernel: keep the schedule's order of the consumers' GEMMs on the tensor core with turn "
                        "barriers (default: the consumers issue in any order; on the H200 the FA forward with turn "
                        "barriers ran 5-7%% slower at N=4k-16k, bench/results/gluon/runs/NOTES.md, run 9)")
    p.add_argument("--tree-reductions", action="store_true",
                   help="Gluon kernel: write each row reduction of a wgmma accumulator as a tree over each thread's "
                        "registers (Triton writes one chain of dependent ops: 33 deep against 7 in the FA forward's "
                        "SASS); on the H200 the FA forward so written ran 3-5%% slower (bench/results/gluon/runs/NOTES.md, "
                        "run 11)")
    p.add_argument("--no-reducer", action="store_true",
                   help="Gluon kernel: leave a partial sum over split rows (the FA backward's dQ) to each consumer's own "
                        "atomic adds instead of a reducer partition that sums the consumers' partials and adds once "
                        "(on the H200 the FA backward so written ran 5-8%% slower: bench/results/gluon/runs/NOTES.md, "
                        "run 17)")
    p.add_argument("--lookahead", action="store_true",
                   help="Gluon kernel: also solve with each partition's dependent GEMMs an iteration apart (LOOKAHEAD) "
                        "and keep the kernel whose replay is fastest; on the H200 the FA forward it chose ran 1-2%% "
                        "slower (bench/results/gluon/runs/NOTES.md, run 8)")
    _add_model_arguments(p)
    _add_gluon_arguments(p)
    p.add_argument("--time-passes", action="store_true", help="print the time each pipeline step took")
    p.add_argument("--dump-dir", default=None, metavar="DIR",
                   help="write each step's output there (graph, costed graph, schedules, annotated IR)")
    p.add_argument("--quiet", action="store_true")


def _add_model_arguments(p: argparse.ArgumentParser) -> None:
    """The options that solve the loop under another model of the Gluon kernel's partitions (each measured on the
    H200: none is the default)."""
    p.add_argument("--sequential-groups", action="store_true",
                   help="Gluon kernel, experimental: solve with each partition issuing one op at a time, wgmmas retired "
                        "in issue order and the generated kernels' measured costs (the machine file's [written] "
                        "table); its FA forward ran 29%% slower on the H200 (bench/results/gluon/runs/NOTES.md, run 4)")
    p.add_argument("--extra-stages", type=int, default=0, choices=range(0, 4), metavar="{0,1,2,3}",
                   help="the joint search (Algorithm 1) tries L at each I up to ceil(L_M / I) * I, the modulo "
                        "schedule's stages; with N, up to N stages more, where the warp groups need a longer "
                        "iteration than the modulo schedule (w8a16: the loads' group pushed it to one stage at "
                        "I=225; a second stage at I=169). \"optimal\" then covers that wider scope")
    p.add_argument("--async-copies", action="store_true",
                   help="Gluon kernel, experimental: solve with the producer's ring copies (TMA, cp.async) holding its "
                        "warp group for their issue, not their latency; on the H200, 7 kernels ran 7-28%% faster so, "
                        "9 ran 7-25%% slower (bench/results/gluon/runs/NOTES.md, run 179)")
    p.add_argument("--issued-loads", action="store_true",
                   help="Gluon kernel, experimental: solve with each pointer load its readers issue (held in registers, "
                        "not copied into a ring) holding their warp group for its issue, not its latency, which stays on "
                        "the edges to its readers (as the replay prices it); on the H200, 2 of 10 kernels ran 11-16%% faster so, "
                        "awq's GEMM 18%% slower (bench/results/gluon/runs/NOTES.md, run 187)")


def _add_gluon_arguments(p: argparse.ArgumentParser) -> None:
    """The Gluon kernel's own decisions, each measured both ways on the H200."""
    p.add_argument("--persistent", default="auto", choices=("auto", "on", "off"),
                   help="Gluon kernel: one CTA per SM looping over the grid's tiles (on), one CTA per tile (off), or "
                        "auto: persistent when the kernel's shared memory or registers leave room for one CTA per SM, "
                        "where no other CTA hides a CTA's prologue and epilogue (default)")
    p.add_argument("--async-tiles", default="auto", choices=("auto", "on", "off"),
                   help="Gluon kernel: a pointer tile a wgmma reads through registers (a weight dequantised, a tile "
                        "transposed) copied by its consumer with cp.async into buffers (on), or loaded into registers "
                        "a stage ahead (off); auto: registers, cp.async where ptxas spills them. Measured both ways on "
                        "the H200 (run 75): cp.async faster for torchao's int8 weight-only GEMM (x0.51 -> x0.86 of "
                        "Triton), lightning attention and FLA's chunk kernels, slower for the int4/int8 dequantising "
                        "GEMMs whose loads the schedule holds two stages ahead")
    p.add_argument("--own-tiles", default="auto", choices=("auto", "on", "off"),
                   help="Gluon kernel: the dots' tiles loaded by the consumer itself, no producer partition (on), or "
                        "copied into rings by a producer (off); auto: a producer, but where cp.async cannot copy the "
                        "tiles at any launch or the loop runs at most two iterations a CTA (constant bounds). Measured both ways on the H200 (runs 78-79): one partition faster for "
                        "Mamba's chunk state (x0.59 -> x0.90 of Triton) and bmm (x0.65 -> x0.75) and FLA's chunk_o "
                        "(x0.85 -> x1.01), loops of 2-8 iterations a CTA; slower for nine of ten others. Where a "
                        "producer feeds one 4-warp consumer in one CTA an SM and the one partition holds two or "
                        "more, auto keeps both: the launch times them on each key's first launch and runs the faster "
                        "(runs 127-128: one partition +9 to +35 %% on three kernels, -3 to -26 %% on three)")
    p.add_argument("--prefetch", default="auto", choices=("auto", "0", "1", "2", "3", "4"),
                   help="Gluon kernel of one partition loading its own tiles: the iterations ahead it copies a wgmma's "
                        "tiles with cp.async into the buffers the wgmma reads (0: loaded a stage ahead in registers and "
                        "stored to shared memory); auto: 3, at most the launch's num_stages - 1 and the loop's constant "
                        "trip count - 1, fewer where the buffers do not fit. Measured on the H200 (runs 89-90): "
                        "tutorial 06's backward x0.80 -> x0.99 of Triton at 3; Mamba's bmm (4 iterations a CTA) "
                        "0.177 / 0.175 / 0.195 / 0.201 ms at 0 / 1 / 2 / 3, its chunk state (8) 59.6 / 54.5 / 53.8 / "
                        "59.1 TFLOP/s")
    p.add_argument("--one-stage", default="auto", choices=("auto", "off", "on"),
                   help="Gluon kernel of one partition whose loads run a stage or more ahead, at most 16 warps an SM: "
                        "also solve its loop in one stage, and where that kernel holds more CTAs an SM, auto: keep "
                        "both in one module, each launch key's first launch timing them and running the faster; on: "
                        "keep the one the model ranks faster per SM (no loop with a dot); off: the pipelined kernel. "
                        "On the H200 one stage ran x1.01-1.20 on three loops (run 139) and x0.69-0.97 on the next "
                        "three (run 142): the schedule does not tell which")
    p.add_argument("--short-loops", default="auto", metavar="auto|off|N",
                   help="Gluon kernel with a producer, its loop's trip count computed from the launch's arguments: "
                        "the module also holds the one-partition kernel of the same schedule, launched where the loop "
                        "runs at most N iterations a CTA (auto: N = 8, or 32 where the launch fills the SMs, kept "
                        "where it holds more CTAs an SM than the producer, timed against it at launch where not twice "
                        "as many; off: the producer's kernel at every launch). "
                        "Measured on the H200 (run 94): the blocksparse matmul, 4 iterations a CTA, x0.44 of Triton "
                        "with the producer, x1.05 as one partition")


def run(args: argparse.Namespace) -> int:
    m = machine(args)                    # an unknown arch fails here, before any work
    if args.calibrated and args.emit == "gluon":       # so does a missing or stale calibration
        if load_for(m) is None:
            raise InputError("no Gluon calibration for this machine", where=m.name,
                             expected=f"{gluon_calibration_path(m.name)} (written by bench/gluon_calibrate.py)",
                             found="no such file")
    elif args.calibrated:
        load_calibration(m)
    for flag, value in (("--time-limit", args.time_limit), ("--total-time", args.total_time)):
        if value is not None and not value > 0:
            raise InputError(f"bad {flag}", expected="a positive number of deterministic seconds", found=str(value))
    if args.row_split is not None and (args.row_split < 1 or args.row_split & (args.row_split - 1)):
        raise InputError("bad --row-split", expected="a power of two >= 1 (row sub-tiles of the Gluon kernel)",
                         found=str(args.row_split))
    if args.emit == "gluon" and m.sm != 90:
        raise InputError("--emit gluon: the Gluon back end writes Hopper (sm_90) kernels", where=m.name,
                         expected="--arch h100 or h200", found=f"sm_{m.sm}")
    for flag, value, what in (("--persistent", args.persistent, "persistence"),
                              ("--async-tiles", args.async_tiles, "how a wgmma's register-read tiles are copied"),
                              ("--own-tiles", args.own_tiles, "who loads the dots' tiles"),
                              ("--prefetch", args.prefetch, "how far ahead a partition copies its own wgmma tiles"),
                              ("--short-loops", args.short_loops, "which kernel a short loop's launch runs"),
                              ("--one-stage", args.one_stage,
                               "a one-partition kernel's stages")):
        if value != "auto" and (args.emit == "triton" or m.sm != 90 or args.swp_only):
            raise InputError(f"{flag} {value}: {what} is a decision of the Gluon kernel, which this run does not write",
                             where=m.name, expected="--arch h100 or h200, --emit auto or gluon",
                             found=f"sm_{m.sm}, --emit {args.emit}" + (", --swp-only" if args.swp_only else ""))
    if args.short_loops not in ("auto", "off") and not (args.short_loops.isdigit() and 1 <= int(args.short_loops) <= 1024):
        raise InputError("bad --short-loops", expected="auto, off, or the most iterations a CTA (1 to 1024) a "
                         "launch runs the one-partition kernel for", found=args.short_loops)
    out_dir = output_dir(args)
    asked = run_record(args)
    check_writable_dir(out_dir)          # before the solve, not after it
    check_same_run(out_dir, asked, args.force)
    opts = OptimizeOptions(
        swp_only=args.swp_only, backend=args.backend, joint_backend=args.joint_backend,
        time_limit=args.time_limit, total_time=args.total_time, normalize_bound=args.normalize_bound,
        profile=args.profile, calibrated=args.calibrated, kernel=args.kernel, loop=args.loop, args=tuple(args.arg),
        consts=tuple(args.const),
        num_warps=args.num_warps, warp_groups=args.warp_groups, reg_limit=args.reg_limit,
        no_cross_warp=args.no_cross_warp, realisable=not args.no_realisability, dump_dir=args.dump_dir,
        emit=args.emit, row_split=args.row_split, tc_order=args.tc_order, tree_reductions=args.tree_reductions,
        reducer=not args.no_reducer, gluon_lookahead=args.lookahead, sequential_groups=args.sequential_groups,
        async_copies=args.async_copies, issued_loads=args.issued_loads, persistent=args.persistent,
        async_tiles=args.async_tiles, own_tiles=args.own_tiles, prefetch=args.prefetch, short_loops=args.short_loops,
        one_stage=args.one_stage, extra_stages=args.extra_stages)
    progress = Progress(quiet=args.quiet, live=sys.stderr.isatty())
    try:
        result = optimize(args.file, m, opts, progress=progress)
    finally:
        progress.close()
    written = write_outputs(result, out_dir, run=asked)
    print(text.summary(result.scheduled_graph, result.schedule))
    for note in result.notes:
        print(note)
    if result.unannotated:
        print(f"annotated.ttgir not written: {result.unannotated}")
    for f in written:
        print(f"wrote {f}")
    print(verdict(result))
    missing = no_gluon(result)
    if missing:
        print(missing)
    if args.time_passes:
        total = sum(result.phases.values())
        print("time per step: " + ", ".join(f"{k} {v:.3f} s" for k, v in result.phases.items()) + f" (total {total:.3f} s)")
    return 1 if missing and args.emit == "gluon" else 0


def no_gluon(result: OptimizeResult) -> str | None:
    """After the verdict, where the Gluon route ran and wrote no kernel: one line saying so and why (the schedule
    and the annotated TTGIR stand; ``--emit gluon`` then exits 1). None where it wrote one or did not run."""
    why = next((n[len("gluon kernel: none ("):-1] for n in result.notes if n.startswith("gluon kernel: none (")), None)
    if why is None:
        return None
    return f"no Gluon kernel written (kernel_gluon.py): {why}"


def verdict(result: OptimizeResult) -> str:
    """The last line: what was proved of what was asked, no more."""
    s = result.schedule
    failed = s.get("joint")
    if isinstance(failed, dict) and failed.get("status"):
        return (f"result: a modulo schedule only, II = {s.ii} ({s.status} as a modulo schedule), no warp assignment; "
                f"joint search: {failed.get('summary', failed['status'])}")
    what = "joint schedule (pipeline + warp groups)" if s.warp else "modulo schedule"
    scope = guarded_scope(result.scheduled_graph) + gluon_own(result)
    if s.status == "optimal":
        return f"result: {what}, II = {s.ii}, L = {s.length}: optimal (proved){scope}"
    if s.status == "feasible":
        return (f"result: {what}, II = {s.ii}, L = {s.length}: feasible, not proved optimal (lower bound "
                f"{s.lower_bound}){scope}")
    return f"result: no schedule ({s.status})"


def gluon_own(result: OptimizeResult) -> str:
    """Where a Gluon kernel was written: that it runs the route's own schedule, not the one the verdict names
    (session 93's sweep: a norm's backward read "joint schedule ... warp groups" while its kernel is one partition)."""
    g = result.gluon
    c = g.chosen if g is not None and g.kernel is not None else None
    if c is None:
        return ""
    joint = c.schedule.get("joint") or {}
    one = joint.get("one_partition") or len(c.kernel.plan.partitions) == 1
    held = (f", {len(joint['together'])} pair(s) of ops the code after the loop reads held in one group"
            if joint.get("together") else "")
    return (f"; kernel_gluon.py runs the Gluon route's own schedule ({c.subtiles} row sub-tile(s)"
            f"{', one partition' if one else ''}, I = {c.schedule.ii} L = {c.schedule.length}: {c.schedule.status} "
            f"for that split under {c.reg_limit} registers a thread{held}, gluon.json)")


def guarded_scope(g: Any) -> str:
    """What the proof leaves out where the loop body's work is under an ``if`` (a block-sparse attention's
    ``if mask_val:`` around its loads and dots): that ``if`` is one node of the graph, its ops run as written
    within it, neither pipelined nor split between warp groups; empty where no node is such an ``if``."""
    guarded = [o for o in getattr(g, "ops", ()) if "scf.if" in o.ops
               and (o.attr("guarded_dot_flops") or o.attr("guarded_load_bytes"))]
    if not guarded:
        return ""
    said = []
    for o in guarded:
        what = " and ".join(w for w, k in (("dots", "guarded_dot_flops"), ("loads", "guarded_load_bytes")) if o.attr(k))
        said.append(f"{o.id} (an if holding {what}, line {o.line})" if o.line else f"{o.id} (an if holding {what})")
    return (f", over the graph where {', '.join(said)} {'is one node' if len(said) == 1 else 'are nodes'} whose "
            "ops run as written, not pipelined within")


def output_dir(args: argparse.Namespace) -> Path:
    """``-o``, else twill-out/<kernel>-<arch>, suffixed by each flag that changes the problem."""
    if args.out:
        return Path(args.out)
    src = Path(args.file)
    # A graph.json fed back from an output folder is named after that folder, not "graph".
    stem = f"{src.resolve().parent.name}-{src.stem}" if src.suffix == ".json" and src.stem == "graph" else src.stem
    parts = [stem, args.arch]
    for name, fmt in NAMED_FLAGS:
        value = getattr(args, name)
        if value in (None, False) or value == DEFAULTS.get(name):
            continue
        parts.append(fmt.format(value if not isinstance(value, bool) else ""))
    parts += [f"{k}{v}" for k, v in args.const] + [f"{k}{v}" for k, v in args.arg]
    return Path("twill-out") / re.sub(r"[^A-Za-z0-9_.=+-]+", "_", "-".join(parts))


def run_record(args: argparse.Namespace) -> dict[str, Any]:
    """What this run was asked to solve (written into schedule.json as ``run``): the input file and
    every flag that changes the problem; time limits and output flags are left out."""
    skip = {"out", "force", "time_limit", "total_time", "time_passes", "dump_dir", "quiet", "command"}
    flags = {k: v for k, v in sorted(vars(args).items()) if not k.startswith("_") and k not in skip and k != "file"}
    flags["arg"], flags["const"] = [list(x) for x in args.arg], [list(x) for x in args.const]
    return {"file": os.path.abspath(args.file), "flags": flags, "argv": sys.argv[1:]}


def check_same_run(out: Path, asked: dict[str, Any], force: bool) -> None:
    """Refuse to overwrite an output folder that another run wrote (its schedule.json's ``run``), unless
    ``force``; a folder without that record (an older twill's) is replaced."""
    f = out / "schedule.json"
    if force or not f.is_file():
        return
    try:
        before = json.loads(f.read_text()).get("run")
    except (OSError, ValueError, AttributeError):
        before = {"file": "an unreadable schedule.json", "flags": {}}
    if not isinstance(before, dict) or (before.get("file"), before.get("flags")) == (asked["file"], asked["flags"]):
        return
    old, new = before.get("flags") or {}, asked["flags"]
    # a flag one record lacks (a twill older or newer than the flag) counts as off, or as its default
    diff = [f"{k} {old.get(k)!r} -> {new.get(k)!r}" for k in sorted(set(old) | set(new))
            if old.get(k, DEFAULTS.get(k)) != new.get(k, DEFAULTS.get(k))
            and (old.get(k, DEFAULTS.get(k)) or new.get(k, DEFAULTS.get(k)))]
    if not diff and before.get("file") == asked["file"]:
        return
    if before.get("file") != asked["file"]:
        diff.insert(0, f"file {before.get('file')} -> {asked['file']}")
    raise InputError("the output folder holds another run's schedule", where=str(out),
                     found="; ".join(diff[:4]) + (" ..." if len(diff) > 4 else ""),
                     hint="pass -o DIR for a folder of its own, or --force to replace it")


_TICK = re.compile(r"joint search: I=\d+ L=\d+\b.*")   # the search's progress lines (its I and L so far)


class Progress:
    """Progress lines on stderr, ``[elapsed] message``. The joint search reports every I it tries: on
    a terminal one live line (rewritten with a carriage return), elsewhere one line every ``every``
    seconds, so a search over hundreds of I values prints a few lines, not hundreds."""

    def __init__(self, quiet: bool, live: bool, every: float = 10.0) -> None:
        self.quiet, self.live, self.every = quiet, live, every
        self.t0 = time.perf_counter()
        self.open = False                # a live line is on screen, not yet ended
        self.width = 0                   # its length
        self.last = float("-inf")        # when the joint search last printed a line (not live)

    def __call__(self, msg: str) -> None:
        if self.quiet:
            return
        now = time.perf_counter()
        line = f"[{now - self.t0:6.1f}s] {msg}"
        if _TICK.fullmatch(msg):         # the search's progress; its explanations always print
            if self.live:
                shown = line[:119]           # one terminal line; padded over a longer one before it
                self.width = max(self.width if self.open else 0, len(shown))
                print("\r" + shown.ljust(self.width), end="", file=sys.stderr, flush=True)
                self.open = True
                return
            if now - self.last < self.every:
                return
            self.last = now
        self.close()
        print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.open:
            print(file=sys.stderr, flush=True)
            self.open = False
