"""The HTML view: one node element per op, one row per warp group and per used unit, a reservation
table that folds every reservation onto one II without overlaps, offline (no network URLs)."""
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from twill.cli import main
from twill.view import render_html, write_html
from twill.view.layout import crossings, graph_layout, is_virtual, layer_layout, layers
from twill.view.model import page_data
from twill.view.svg import PLOT_W

ROOT = Path(__file__).resolve().parents[2]
FA3 = ROOT / "tests" / "browser" / "data" / "fa3-h100"
EXAMPLES = ROOT / "tests" / "data" / "view"
# Real `twill optimize` outputs (schedule.json with graph.json beside it).
OUTPUTS = sorted(p.parent for p in (ROOT / "bench" / "results" / "schedules").glob("*/schedule.json")) + [FA3]


def example(name: str, record: str = "schedule") -> dict:
    """A record of an example in tests/data/view, read afresh so that a test may change it."""
    return json.loads((EXAMPLES / name / f"{record}.json").read_text())


def section(page: str, sid: str) -> str:
    m = re.search(rf'<section class="card" id="{sid}">(.*?)</section>', page, re.S)
    assert m, f"no section {sid}"
    return m.group(1)


def rows(svg: str, kind: str) -> dict[str, str]:
    """Each <g class="kind" data-...="key"> row of an SVG, by key, with its body."""
    out = {}
    for m in re.finditer(rf'<g class="{kind}" data-\w+="([^"]*)">(.*?)</g>', svg, re.S):
        out[m.group(1)] = m.group(2)
    return out


def bars(body: str) -> list[tuple[str, float, float, float]]:
    return [(m.group(1), float(m.group(2)), float(m.group(3)), float(m.group(4))) for m in re.finditer(
        r'<rect class="bar" data-id="([^"]+)" data-note="[^"]*" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', body)]


def node_boxes(svg: str) -> dict[str, tuple[float, float, float, float]]:
    """(x, y, width, height) of each node box of the graph, by node id."""
    return {m.group(1): tuple(float(m.group(k)) for k in range(2, 6)) for m in re.finditer(
        r'<g class="node[^"]*" data-id="([^"]+)" data-wg="[^"]*"><rect class="box" x="([\d.]+)" y="([\d.]+)" '
        r'width="([\d.]+)" height="([\d.]+)"', svg)}


def tooltip_data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="twill-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


def no_network(page: str) -> None:
    for url in re.findall(r'(?<![\w-])(?:src|href)="([^"]*)"', page) + re.findall(r"url\(([^)]*)\)", page):
        assert url.startswith(("#", "data:")) or url.startswith("url(#"), url
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=\"(https?:)?//", page)
    assert "@import" not in page


@pytest.fixture(scope="module")
def fa_page() -> str:
    return render_html(example("fa_subtiled"), None, example("fa_subtiled", "profile"),
                       example("fa_subtiled", "validation"))


def test_figure1_page_counts():
    s = example("figure1")
    g = s["graph"]
    page = render_html(s, g)
    assert len(re.findall(r'<g class="node[ "]', section(page, "graph"))) == 3
    assert rows(section(page, "mrt"), "unit-row").keys() == {"tc", "sfu"}
    assert rows(section(page, "timeline"), "wg-row") == {}
    assert rows(section(page, "timeline"), "unit-row").keys() == {"tc", "sfu"}
    assert "Never reserved: tma, lsu, alu" in page
    assert "ttng.warp_group_dot" in tooltip_data(page)["nodes"]["S"]["ir"][0]
    no_network(page)


def test_fa_page_counts(fa_page):
    sched = example("fa_subtiled")
    graph = sched["graph"]
    warp = sched["warp"]
    assert len(re.findall(r'<g class="node[ "]', section(fa_page, "graph"))) == len(graph["nodes"]) == 18
    assert set(re.findall(r'data-wg="(\d+)"', section(fa_page, "graph"))) == {str(w) for w in warp.values()}
    assert rows(section(fa_page, "timeline"), "wg-row").keys() == {"0", "1", "2", "3"}
    assert rows(section(fa_page, "timeline"), "unit-row").keys() == {"tc", "sfu", "alu"}
    assert rows(section(fa_page, "mrt"), "unit-row").keys() == {"tc", "sfu", "alu"}
    # cross-warp edges are the edges between different groups, drawn distinctly
    cross = sum(1 for e in graph["edges"] if e["src"] != e["dst"] and warp[e["src"]] != warp[e["dst"]])
    assert section(fa_page, "graph").count('class="edge crosswarp') + \
        section(fa_page, "graph").count('blocking crosswarp"') == cross
    assert section(fa_page, "graph").count("<path class=\"edge") == len(graph["edges"])
    no_network(fa_page)


def test_every_op_carries_its_ttgir_and_source(fa_page):
    data = tooltip_data(fa_page)["nodes"]
    for n in example("fa_subtiled")["graph"]["nodes"]:
        assert data[n["id"]]["ir"] == [line.strip() for line in n["ir"]]
        assert data[n["id"]]["source"] == f"fa_example.py:{n['line']}"
    assert "median 540 cycles" in data["qk_a"]["measured_text"]


def test_reservation_table_folds_onto_ii_without_overlap(fa_page):
    sched = example("fa_subtiled")
    graph = sched["graph"]
    ii = sched["ii"]
    px = PLOT_W / ii
    busy: dict[str, float] = {}
    for n in graph["nodes"]:
        for r in n["rrt"]:
            busy[r["unit"]] = busy.get(r["unit"], 0) + r["length"] * r["count"]
    for unit, body in rows(section(fa_page, "mrt"), "unit-row").items():
        bs = bars(body)
        assert sum(w for *_, w in bs) / px == pytest.approx(busy[unit], abs=0.05)
        assert f">{busy[unit] / ii:.0%}</text>" in body
        for i, (_, x, y, w) in enumerate(bs):       # a lane never holds two reservations at once
            assert x >= 128 - 0.1 and x + w <= 128 + PLOT_W + 0.1
            for _, x2, y2, w2 in bs[i + 1:]:
                if y == y2:
                    assert x + w <= x2 + 0.2 or x2 + w2 <= x + 0.2


def test_timeline_phases_and_copies(fa_page):
    sched = example("fa_subtiled")
    ii, L = sched["ii"], sched["length"]
    copies = -(-L // ii)
    tl = section(fa_page, "timeline")
    assert len(re.findall(r'<g class="iteration" data-iter=', tl)) == copies
    end = (copies - 1) * ii + L
    widths = {m.group(1): float(m.group(2)) for m in re.finditer(
        r'<g class="phase" data-phase="(\w+)"><rect class="phase-\w+" x="[\d.]+" y="0" width="([\d.]+)"', tl)}
    assert widths["steady"] == pytest.approx(PLOT_W * ii / end, abs=0.1)
    assert widths["pro"] == pytest.approx(PLOT_W * (copies - 1) * ii / end, abs=0.1)
    assert widths["epi"] == pytest.approx(PLOT_W * (L - ii) / end, abs=0.1)
    # every op appears once per copy in its warp group's row
    wg_rows = rows(tl, "wg-row")
    for nid, g in sched["warp"].items():
        assert sum(1 for b in bars(wg_rows[str(g)]) if b[0] == nid) == copies


def test_memory_and_measured_sections(fa_page):
    mem = section(fa_page, "memory")
    assert mem.count('class="memchart"') == 3                 # registers, shared memory, registers per group
    assert mem.count('class="limit"') == 3
    assert "limit 128 KiB" in mem                              # the per-group register limit
    meas = section(fa_page, "measured")
    assert meas.count('class="meas-row"') == 18
    assert "2,480" in meas and "+7.6%" in meas


def test_unsolved_schedule_shows_the_search():
    s = {"schema": "twill.schedule/1", "ii": 0, "length": 0, "stages": 0, "start": {}, "status": "infeasible",
         "lower_bound": 3, "search": [{"ii": 3, "length": [4, 6], "result": "unsat", "seconds": 0.2}],
         "graph": example("figure1")["graph"]}
    page = render_html(s)
    assert 'id="noschedule"' in page and 'id="mrt"' not in page and 'id="timeline"' not in page
    assert '<span class="chip unsat">unsat</span>' in page
    assert len(re.findall(r'<g class="node[ "]', page)) == 3


def test_costed_graph_supplies_real_cycles_and_units_convert():
    s = example("figure1")
    real = example("figure1")["graph"]
    for n in real["nodes"]:
        n["cycles"] = 1000
    pd = page_data(s, real)
    assert [n.cycles for n in pd.nodes] == [1000, 1000, 1000] and [n.cost for n in pd.nodes] == [1, 1, 1]
    # no embedded graph: a graph in cycles is converted through the normalisation's scale
    s2 = {k: v for k, v in s.items() if k != "graph"}
    for n in real["nodes"]:
        n["cycles"] = 1024
        n["rrt"] = [{"unit": n["unit"], "offset": 0, "length": 1024, "count": 1}]
    pd2 = page_data(s2, real)
    assert [n.cost for n in pd2.nodes] == [1, 1, 1] and pd2.nodes[0].rrt == (("tc", 0, 1, 1),)


def test_layers_come_from_distance_zero_edges():
    assert layer_layout(["S", "P", "O"], [("S", "P", 0), ("P", "O", 0), ("O", "S", 1)]) == \
        {"S": (0, 0), "P": (1, 0), "O": (2, 0)}
    # a source feeding only a deep node sits just above it
    lay = layer_layout(["a", "b", "c", "ld"], [("a", "b", 0), ("b", "c", 0), ("ld", "c", 0)])
    assert lay["ld"][0] == 1 and lay["c"][0] == 2


def test_a_zero_distance_cycle_is_broken_at_program_order():
    # an invalid graph still draws: the edge of the cycle that goes back in program order is left out of the layers
    assert layers(["a", "b", "c"], [("a", "b", 0), ("b", "c", 0), ("c", "a", 0)]) == {"a": 0, "b": 1, "c": 2}
    s = example("figure1")
    s["graph"]["edges"].append({"src": "O", "dst": "S", "delay": 1, "distance": 0, "blocking": False})
    svg = section(render_html(s), "graph")
    boxes = node_boxes(svg)
    assert boxes.keys() == {"S", "P", "O"} and boxes["S"][1] < boxes["P"][1] < boxes["O"][1]
    assert svg.count('<path class="edge') == 4


def test_crossing_reduction_untangles_the_subtiled_graph():
    pd = page_data(example("fa_subtiled"), None)
    ids = [n.id for n in pd.nodes]
    lay = graph_layout(ids, pd.edges)
    item_layer = {v: k for k, r in lay.rows.items() for v in r}
    links = []
    for i, e in enumerate(pd.edges):
        if e.src != e.dst and lay.layer[e.dst] > lay.layer[e.src]:
            chain = [e.src, *lay.chains.get(i, []), e.dst]
            links += list(zip(chain, chain[1:]))
    # program order (virtual points last) crosses; the layout's order does not
    program = {k: [v for v in ids if v in r] + [v for v in r if is_virtual(v)] for k, r in lay.rows.items()}
    assert crossings(program, links, item_layer) > 0 and crossings(lay.rows, links, item_layer) == 0
    assert graph_layout(ids, pd.edges) == lay


@pytest.mark.parametrize("out", OUTPUTS, ids=lambda p: p.name)
def test_real_graphs_are_laid_out_without_overlaps(out):
    sched = json.loads((out / "schedule.json").read_text())
    graph = json.loads((out / "graph.json").read_text())
    pd = page_data(sched, graph)
    svg = section(render_html(sched, graph), "graph")
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
    boxes = node_boxes(svg)
    assert boxes.keys() == {n.id for n in pd.nodes}
    items = list(boxes.values())
    for i, (x, y, w, h) in enumerate(items):
        assert 0 <= x and x + w <= width
        for x2, y2, w2, h2 in items[i + 1:]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y
    # every edge drawn once; a dependence within one iteration points down the page
    drawn = re.findall(r'<path class="edge[^"]*" data-src="([^"]+)" data-dst="([^"]+)"', svg)
    assert sorted(drawn) == sorted((e.src, e.dst) for e in pd.edges)
    for e in pd.edges:
        if e.distance == 0 and e.src != e.dst:
            assert boxes[e.dst][1] > boxes[e.src][1]


def test_the_page_is_the_same_on_every_run():
    code = ("import hashlib, json, sys\nfrom twill.view import render_html\n"
            "s = json.load(open(sys.argv[1])); g = json.load(open(sys.argv[2]))\n"
            "print(hashlib.sha256(render_html(s, g).encode()).hexdigest())\n")
    out = ROOT / "bench" / "results" / "schedules" / "fa3_subtiled-h200-ws"
    args = [str(out / "schedule.json"), str(out / "graph.json")]
    digests = {subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(digests) == 1


def test_the_template_is_filled_and_the_data_cannot_end_its_script():
    s = example("figure1")
    s["kernel"] = "a<b>&c"
    s["graph"]["nodes"][0]["ir"] = ["</script><script>alert(1)</script>"]
    page = render_html(s)
    assert not re.search(r"\$(title|css|body|data|script)\b", page)
    assert "<title>twill · a&lt;b&gt;&amp;c on h100</title>" in page
    assert page.count("</script>") == 2            # the data's and the script's own
    assert tooltip_data(page)["nodes"]["S"]["ir"] == ["</script><script>alert(1)</script>"]


def test_the_view_imports_no_higher_layer():
    code = ("import json, sys\nimport twill.view\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('twill.', 'ortools', 'triton')))))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    loaded = json.loads(r.stdout)
    assert "twill.view.page" in loaded
    assert all(m in ("twill.errors", "twill.util") or m.startswith("twill.view") for m in loaded), loaded


def test_real_fa3_output_renders():
    sched = json.loads((FA3 / "schedule.json").read_text())
    graph = json.loads((FA3 / "graph.json").read_text())
    page = render_html(sched, graph)
    assert len(re.findall(r'<g class="node[ "]', page)) == len(graph["nodes"])
    assert rows(section(page, "mrt"), "unit-row").keys() == {"tc", "sfu", "alu"}
    data = tooltip_data(page)["nodes"]
    assert data["dot0_qk"]["cost_text"].startswith("107 units ≈ 1,024 cycles")   # real cycles from graph.json
    assert "timeout: no warp assignment found" in page
    no_network(page)


def test_write_html_is_atomic_and_readable(tmp_path):
    out = write_html(tmp_path / "schedule.html", example("figure1"))
    assert out.read_text().startswith("<!doctype html>")
    umask = os.umask(0o022)
    os.umask(umask)
    assert os.stat(out).st_mode & 0o777 == 0o666 & ~umask    # not mkstemp's private 0600
    assert [p.name for p in tmp_path.iterdir()] == ["schedule.html"]


def test_cli_view_writes_the_page(tmp_path, capsys):
    for record in ("schedule", "profile"):
        shutil.copy(EXAMPLES / "fa_subtiled" / f"{record}.json", tmp_path)
    assert main(["view", str(tmp_path), "--no-open"]) == 0
    page = (tmp_path / "schedule.html").read_text()
    assert 'id="measured"' in page
    (tmp_path / "validation.json").write_text("{oops")
    assert main(["view", str(tmp_path), "--no-open"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "validation.json:1: malformed validation JSON" in err[0]
    assert main(["view", str(tmp_path / "missing"), "--no-open"]) == 2


def test_cli_view_reads_graph_json_beside_the_schedule(tmp_path):
    s = example("figure1")
    g = s.pop("graph")
    (tmp_path / "schedule.json").write_text(json.dumps(s))
    assert main(["view", str(tmp_path / "schedule.json"), "--no-open"]) == 2   # no graph anywhere
    (tmp_path / "graph.json").write_text(json.dumps(g))
    assert main(["view", str(tmp_path / "schedule.json"), "--no-open"]) == 0
    assert len(re.findall(r'<g class="node[ "]', (tmp_path / "schedule.html").read_text())) == 3


def test_cli_view_serves_on_localhost(tmp_path):
    (tmp_path / "schedule.json").write_text(json.dumps(example("figure1")))
    proc = subprocess.Popen([sys.executable, "-m", "twill", "view", str(tmp_path), "--serve", "0", "--no-open"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    try:
        url = None
        for _ in range(5):
            line = proc.stdout.readline()
            m = re.search(r"serving (http://127\.0\.0\.1:\d+/schedule\.html)", line)
            if m:
                url = m.group(1)
                break
        assert url, "no serving line"
        with urllib.request.urlopen(url, timeout=10) as r:
            assert r.status == 200 and b'id="twill-data"' in r.read()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_cli_view_leaves_an_unchanged_page_alone(tmp_path, capsys):
    """The page is deterministic: a second ``twill view`` of the same records does not rewrite it
    (nor bump its modification time); a change beside it (a profile) does."""
    shutil.copy(EXAMPLES / "fa_subtiled" / "schedule.json", tmp_path)
    assert main(["view", str(tmp_path), "--no-open"]) == 0
    page = tmp_path / "schedule.html"
    os.utime(page, (1_000_000_000, 1_000_000_000))
    capsys.readouterr()
    assert main(["view", str(tmp_path), "--no-open"]) == 0
    assert page.stat().st_mtime == 1_000_000_000 and "up to date" in capsys.readouterr().out
    shutil.copy(EXAMPLES / "fa_subtiled" / "profile.json", tmp_path)
    assert main(["view", str(tmp_path), "--no-open"]) == 0
    assert page.stat().st_mtime != 1_000_000_000 and "wrote" in capsys.readouterr().out


def test_the_page_says_its_times_are_units():
    page = render_html(example("fa_subtiled"))
    lede = re.search(r'id="timeline"><h2>Pipelined timeline</h2><p class="lede">([^<]*)', page).group(1)
    assert re.search(r"length L = \d+ units, 1 unit ≈ [\d.]+ cycles", lede), lede


def test_the_loop_run_and_the_calibrated_replay_have_their_cards():
    v = dict(example("fa_subtiled", "validation"), calibrated_iteration_cycles=2687.7,
             calibrated={"held_out": True}, measured_loop_iteration_cycles=2485.2, loop_run_overhead=1.0203)
    page = render_html(example("fa_subtiled"), None, example("fa_subtiled", "profile"), v)
    assert re.search(r"calibrated replay</div><div class=\"v\">2,688", page)
    m = re.search(r"loop run</div><div class=\"v\">2,485.*?</div>\s*<div[^>]*>([^<]*)", page, re.S)
    assert m and "x1.020 the plain kernel" in m.group(1) and "-7.5% against the calibrated replay" in m.group(1)
    assert "loop run</div>" not in render_html(example("fa_subtiled"), None, example("fa_subtiled", "profile"),
                                               example("fa_subtiled", "validation"))
    assert "earlier runs in the fit" not in page
    v["calibrated"] = {"held_out": True, "seen": {"cycles": 2559.8, "runs": ["fa3-run214"]}}
    page = render_html(example("fa_subtiled"), None, example("fa_subtiled", "profile"), v)
    assert re.search(r"calibrated, earlier runs in the fit</div><div class=\"v\">2,560", page)


def test_the_measured_iteration_card_says_it_came_from_runs_of_a_few_regions():
    v = dict(example("fa_subtiled", "validation"), measured_iteration_cycles=3512.5, profile_runs=10,
             profile_overhead=1.048, all_regions_run={"overhead": 1.279})
    page = render_html(example("fa_subtiled"), None, example("fa_subtiled", "profile"), v)
    m = re.search(r"measured iteration</div><div class=\"v\">3,512.*?</div>\s*<div[^>]*>([^<]*)", page, re.S)
    assert m and "10 runs of a few regions, each at most x1.048 the plain kernel" in m.group(1)
    v["profile_recorded_every"] = 2
    page = render_html(example("fa_subtiled"), None, example("fa_subtiled", "profile"), v)
    assert "10 runs of a few regions, each recording one iteration in 2, each at most x1.048" in page
    plain = render_html(example("fa_subtiled"), None, example("fa_subtiled", "profile"),
                        example("fa_subtiled", "validation"))
    assert "runs of a few regions" not in plain
