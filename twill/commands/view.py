"""``twill view PATH``: (re)write schedule.html from schedule.json and open it in the browser."""
from __future__ import annotations

import argparse
import json
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="schedule.json, or the directory `twill optimize` wrote")
    p.add_argument("--no-open", action="store_true", help="write the page, do not open a browser")


def run(args: argparse.Namespace) -> int:
    from twill.errors import InputError
    from twill.schedule.model import Schedule
    from twill.view.html import write_html

    p = Path(args.path)
    sched_path = p / "schedule.json" if p.is_dir() else p
    if not sched_path.is_file():
        raise InputError("no schedule", where=str(p), expected="schedule.json or a twill optimize output directory")
    try:
        data = json.loads(sched_path.read_text())
    except json.JSONDecodeError as e:
        raise InputError("malformed schedule JSON", where=f"{sched_path}:{e.lineno}", found=e.msg) from None
    Schedule.from_dict(data, where=str(sched_path))   # validates the schema
    extra = {}
    for name in ("profile", "validation"):
        f = sched_path.with_name(f"{name}.json")
        if f.is_file():
            extra[name] = json.loads(f.read_text())
    graph = data.get("graph")
    if graph is None:
        g = sched_path.with_name("graph.json")
        if not g.is_file():
            raise InputError("schedule has no graph", where=str(sched_path), expected="an embedded graph or graph.json")
        graph = json.loads(g.read_text())
    out = write_html(sched_path.with_name("schedule.html"), data, graph, **extra)
    print(f"wrote {out}")
    if not args.no_open:
        import webbrowser

        webbrowser.open(out.resolve().as_uri())
    return 0
