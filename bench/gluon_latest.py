"""Each committed Gluon kernel's latest GPU figure against Triton's default at the same problem, read from the GPU
runs' committed records (``bench/results/gluon/runs/**/gpu*.json``, as ``bench/gluon_gpu.py`` writes them); no GPU.

    python bench/gluon_latest.py [--below X] [--older-than RUN] [--labels]

One line per variant of ``bench/results/gluon/`` whose kernel file some run timed against Triton's default at a
problem its kernel was also timed at: the ratio (CUDA-graph figures where both have them, else the direct ones),
the runs each side comes from, the problem. Lowest first. ``--below X``: ratios under X only; ``--older-than RUN``:
figures from runs before RUN only (what a new GPU run should measure again: the kernel may have changed since);
``--labels``: the labels alone, space-separated, for a run script. A kernel whose run failed its check is not used,
and a record with a ``kernel_sha256`` (from run 140 on) counts for the committed kernel of that hash.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "bench/results/gluon/runs"


def records(runs: Path = RUNS) -> Iterator[tuple[int, dict[str, Any]]]:
    """(run number, record) of every GPU run record under ``runs``, oldest run first."""
    found = []
    for f in runs.rglob("*.json"):
        m = re.search(r"run(\d+)", str(f.relative_to(runs)))
        if not m:
            continue
        try:
            d = json.loads(f.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(d, dict) and "variants" in d:
            found.append((int(m.group(1)), str(f), d))
    for n, _, d in sorted(found, key=lambda x: (x[0], x[1])):
        yield n, d


def _rate(row: dict[str, Any], keys: tuple[str, str, str, str]) -> tuple[float | None, float | None]:
    """A row's rates, higher is faster (TFLOP/s, or 1 / ms): from a CUDA graph and direct. ``keys``: its graph and
    direct TFLOP/s keys, then its graph and direct ms keys."""
    def one(fast: str, slow: str) -> float | None:
        if isinstance(row.get(fast), (int, float)):
            return float(row[fast])
        if isinstance(row.get(slow), (int, float)) and row[slow] > 0:
            return 1.0 / float(row[slow])
        return None
    return one(keys[0], keys[2]), one(keys[1], keys[3])


TWILL = ("graph_tflops", "tflops", "graph_ms", "ms")
TRITON = ("triton_default_graph", "triton_default", "triton_default_ms_graph", "triton_default_ms")


def latest(runs: Path = RUNS, variants: Path = ROOT / "bench/results/gluon") -> list[dict[str, Any]]:
    """The latest timed figure of each variant under ``variants`` and the latest Triton default of its kernel file
    at the same problem, from the records under ``runs``, as ratios."""
    labels = {p.name for p in variants.iterdir() if (p / "variant.json").exists()}
    sys.path.insert(0, str(ROOT))
    from codegen.gluon.host import HOST_MARK

    texts = {n: (variants / n / "kernel_gluon.py").read_text() for n in labels if (variants / n / "kernel_gluon.py").exists()}
    by_sha = {hashlib.sha256(t.encode()).hexdigest(): n for n, t in texts.items()} | \
        {"device:" + hashlib.sha256(t.split(HOST_MARK)[0].encode()).hexdigest(): n for n, t in texts.items()}
    twill: dict[tuple[str, str, str], tuple[int, dict[str, Any], str, bool, str]] = {}
    triton: dict[tuple[str, str, str], tuple[int, dict[str, Any]]] = {}
    for n, d in records(runs):
        command = str((d.get("env") or {}).get("command", ""))
        card = _card(d)
        for v in d.get("variants", []):
            label = _committed_label(v, command, labels, by_sha)
            if label is not None and v.get("pass"):
                for s in v.get("speed") or []:
                    if not s.get("fallback_launches"):        # else the figure is the Triton kernel's
                        twill[(label, json.dumps(s.get("problem"), sort_keys=True), card)] = (n, s, v["kernel_file"],
                                                                                               _hashed(v), card)
        base = d.get("baselines") or []
        for b in base.values() if isinstance(base, dict) else base:
            for r in b.get("rows") or []:
                triton[(b["kernel_file"], json.dumps(r.get("problem"), sort_keys=True), card)] = (n, r)
    out = []
    for (label, problem, _), (n, s, kernel_file, hashed, card) in twill.items():
        b = triton.get((kernel_file, problem, card))         # Triton's figure from the same card
        if b is None:
            continue
        (mine_graph, mine), (theirs_graph, theirs) = _rate(s, TWILL), _rate(b[1], TRITON)
        if mine_graph is not None and theirs_graph is not None:     # like for like: graphs where both have them
            mine, theirs = mine_graph, theirs_graph
        if mine is None or theirs is None:
            continue
        out.append({"label": label, "ratio": mine / theirs, "run": n, "triton_run": b[0], "problem": problem,
                    "by_label": not hashed, "card": card})
    newest: dict[str, dict[str, Any]] = {}
    for r in out:              # per variant, its latest run's figure (the largest problem on a tie)
        if r["label"] not in newest or (r["run"], len(r["problem"])) >= (newest[r["label"]]["run"],
                                                                       len(newest[r["label"]]["problem"])):
            newest[r["label"]] = r
    return sorted(newest.values(), key=lambda r: r["ratio"])


def _hashed(v: dict[str, Any]) -> bool:
    """Whether a record names its kernel by hash (runs from 140 on): else it is matched by label, and the committed
    kernel may have changed since it ran (run 153: fa2_triton_bwd's figure was of a kernel before a regeneration that
    broke its dK)."""
    return bool(v.get("device_sha256") or v.get("kernel_sha256"))


def _committed_label(v: dict[str, Any], command: str, labels: set[str], by_sha: dict[str, str]) -> str | None:
    """The committed variant a record timed: by its kernel's device code's ``device_sha256`` (else the whole file's
    ``kernel_sha256``; runs from 140 on) whatever the
    directory it was timed from (a kernel timed under ``runs/NNN/kernels/`` and committed since counts); a record
    without one by its label, where the run's command names the committed directory (not one of ``runs/NNN/``, nor
    another whose label it begins). Run 139 timed kernels of the route that were not kept under their committed
    labels: only the hash tells them apart."""
    if v.get("device_sha256"):            # the device code's hash: a launcher change alone keeps it
        return by_sha.get("device:" + v["device_sha256"])
    sha = v.get("kernel_sha256")
    if sha:
        return by_sha.get(sha)
    label = str(v.get("label"))
    here = re.search(rf"bench/results/gluon/{re.escape(label)}(/|\s|$)", command) is not None
    return label if label in labels and here else None


def _card(record: dict[str, Any]) -> str:
    """The GPU a record was timed on: H100 where its ``env.gpu`` says so (the device machine lends either since
    session 78's run 205), else H200 (every run before names the H200 or nothing)."""
    return "H100" if "H100" in str((record.get("env") or {}).get("gpu", "")) else "H200"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--below", type=float, default=None, help="ratios under this only")
    ap.add_argument("--older-than", type=int, default=None, help="figures from runs before this one only")
    ap.add_argument("--labels", action="store_true", help="the labels alone, space-separated")
    a = ap.parse_args()
    rows = [r for r in latest() if (a.below is None or r["ratio"] < a.below)
            and (a.older_than is None or r["run"] < a.older_than)]
    if a.labels:
        print(" ".join(r["label"] for r in rows))
        return 0
    for r in rows:
        print(f"x{r['ratio']:.2f}  {r['label']:<40} run {r['run']:>3} (Triton: run {r['triton_run']:>3})  {r['problem']}"
              + ("  [by label]" if r["by_label"] else "") + (f"  [{r['card']}]" if r["card"] != "H200" else ""))
    old = sum(r["by_label"] for r in rows)
    print(f"{len(rows)} variants" + (f"; {old} [by label]: from a run before kernel hashes (140), matched by label, "
                                     "so the kernel may have changed since" if old else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
