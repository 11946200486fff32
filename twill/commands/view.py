"""``twill view PATH``: (re)write schedule.html from schedule.json and open it in the browser."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from twill.errors import InputError
from twill.schedule.model import Schedule
from twill.util import atomic_write
from twill.view import render_html


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="schedule.json, or the directory `twill optimize` wrote (graph.json, "
                                "profile.json and validation.json beside it are drawn too)")
    p.add_argument("--no-open", action="store_true", help="write the page, do not open a browser")
    p.add_argument("--serve", type=int, metavar="PORT", default=None,
                   help="serve the page on http://127.0.0.1:PORT until interrupted (0 picks a free port)")


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(f"cannot read {what}", where=str(path), found=e.strerror) from None
    except json.JSONDecodeError as e:
        raise InputError(f"malformed {what} JSON", where=f"{path}:{e.lineno}", expected="JSON", found=e.msg) from None


def load_inputs(path: str | Path) -> tuple[Path, dict[str, Any], dict[str, Any] | None, dict[str, Any]]:
    """schedule.json's path and dict, the graph (embedded or graph.json beside it) and the optional
    profile and validation records beside it."""
    p = Path(path)
    sched_path = p / "schedule.json" if p.is_dir() else p
    if not sched_path.is_file():
        raise InputError("no schedule", where=str(p), expected="schedule.json or a `twill optimize` output directory")
    data = _read_json(sched_path, "schedule")
    Schedule.from_dict(data, where=str(sched_path))          # the schema, checked once
    graph_file = sched_path.with_name("graph.json")
    graph = _read_json(graph_file, "graph") if graph_file.is_file() else None
    if graph is None and not isinstance(data.get("graph"), dict):
        raise InputError("schedule has no graph", where=str(sched_path), expected="an embedded graph or graph.json beside it",
                         found="neither")
    extra = {}
    for name in ("profile", "validation"):
        f = sched_path.with_name(f"{name}.json")
        if f.is_file():
            extra[name] = _read_json(f, name)
    return sched_path, data, graph, extra


def run(args: argparse.Namespace) -> int:
    sched_path, data, graph, extra = load_inputs(args.path)
    out = sched_path.with_name("schedule.html")
    page = render_html(data, graph, extra.get("profile"), extra.get("validation"))
    try:
        same = out.is_file() and out.read_text(encoding="utf-8") == page
    except (OSError, UnicodeDecodeError):
        same = False
    if same:                             # the page is deterministic: leave the file (and its mtime) alone
        print(f"{out} is up to date")
    else:
        try:
            atomic_write(out, page)
        except OSError as e:
            raise InputError("cannot write the page", where=str(out), found=e.strerror) from None
        print(f"wrote {out}")
    if args.serve is not None:
        return _serve(out, args.serve, open_browser=not args.no_open)
    if not args.no_open and not _open(out.resolve().as_uri()):
        print(f"no browser found; open {out.resolve()} yourself, or run `twill view {args.path} --serve 8000`")
    return 0


def _open(url: str) -> bool:
    import webbrowser

    try:
        return bool(webbrowser.open(url))
    except webbrowser.Error:
        return False


def _serve(page: Path, port: int, open_browser: bool) -> int:
    """Serve the page's directory on 127.0.0.1 only, until Ctrl-C."""
    import functools
    import http.server

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(page.parent.resolve()))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as e:
        raise InputError("cannot serve", where=f"127.0.0.1:{port}", expected="a free port", found=e.strerror) from None
    url = f"http://127.0.0.1:{server.server_address[1]}/{page.name}"
    print(f"serving {url} (Ctrl-C to stop)", flush=True)
    if open_browser:
        _open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
