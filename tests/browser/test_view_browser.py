"""The schedule page in real headless chromium: it loads with no console errors and no network
requests, has the expected numbers of nodes and rows, and hovering an op shows its TTGIR."""
import json
from pathlib import Path

import pytest

from twill.view import write_html

pytestmark = pytest.mark.browser
DATA = Path(__file__).resolve().parent / "data"
EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "view"


def example(name: str, record: str = "schedule") -> dict:
    """A record of an example in tests/data/view."""
    return json.loads((EXAMPLES / name / f"{record}.json").read_text())


def open_page(browser, path: Path):
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    errors, requests = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri(), wait_until="load")
    return page, errors, requests


def check_loaded(errors, requests, path):
    assert errors == []
    assert all(u == path.as_uri() or u.startswith("data:") for u in requests), requests


def test_fa_subtiled_page(browser, tmp_path):
    sched = example("fa_subtiled")
    graph = sched["graph"]
    html = write_html(tmp_path / "schedule.html", sched, None, example("fa_subtiled", "profile"),
                      example("fa_subtiled", "validation"))
    page, errors, requests = open_page(browser, html)
    assert page.locator("#graph g.node").count() == len(graph["nodes"]) == 18
    assert page.locator("#timeline g.wg-row").count() == len(set(sched["warp"].values())) == 4
    assert page.locator("#timeline g.unit-row").count() == 3
    assert page.locator("#mrt g.unit-row").count() == 3
    assert page.locator("#measured g.meas-row").count() == 18
    # the graph is laid out inside its card: every node box is visible and within the page width
    for box in (page.locator("#graph g.node").nth(i).bounding_box() for i in range(18)):
        assert box and box["width"] > 40 and 0 <= box["x"] and box["x"] + box["width"] <= 1300
    # hover an op in the graph: the tooltip shows its TTGIR and source line; the same op lights up elsewhere
    assert page.locator("#tip").is_hidden()
    page.locator('#graph g.node[data-id="qk_a"]').hover()
    tip = page.locator("#tip")
    assert tip.is_visible()
    text = tip.inner_text()
    assert "ttng.warp_group_dot %q_a" in text and "fa_example.py:69" in text and "median 540 cycles" in text
    # both pipelined copies, in its warp group's row and in the tensor-core row
    assert page.locator('#timeline g.wg-row rect.bar.hl[data-id="qk_a"]').count() == 2
    assert page.locator('#timeline g.unit-row rect.bar.hl[data-id="qk_a"]').count() == 2
    assert page.locator('#graph g.node.hl').count() == 1
    page.screenshot(path=str(tmp_path / "fa_hover.png"))
    # hover a bar of the reservation table
    page.locator('#mrt rect.bar[data-id="pv_b"]').first.hover()
    assert "pv_b" in tip.inner_text() and "slots" in tip.inner_text()
    page.mouse.move(2, 2)
    page.mouse.move(1, 1)
    shot = tmp_path / "fa_subtiled.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 50_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    check_loaded(errors, requests, html)
    page.close()


def test_real_fa_forward_page(browser, tmp_path):
    """The page of a real `twill optimize kernels/fa3.py --arch h100` run (modulo schedule; the joint
    search found no warp assignment within its budget)."""
    sched = json.loads((DATA / "fa3-h100" / "schedule.json").read_text())
    graph = json.loads((DATA / "fa3-h100" / "graph.json").read_text())
    html = write_html(tmp_path / "schedule.html", sched, graph)
    page, errors, requests = open_page(browser, html)
    assert page.locator("#graph g.node").count() == len(graph["nodes"]) == 12
    assert page.locator("#timeline g.wg-row").count() == 0
    assert page.locator("#timeline g.unit-row").count() == 3
    assert page.locator("#mrt g.unit-row").count() == 3
    page.locator('#graph g.node[data-id="sfu0_p"]').hover()
    assert "math.exp2" in page.locator("#tip").inner_text() and "fa3.py:72" in page.locator("#tip").inner_text()
    page.screenshot(path=str(tmp_path / "fa3_h100.png"), full_page=True)
    assert (tmp_path / "fa3_h100.png").stat().st_size > 50_000
    check_loaded(errors, requests, html)
    page.close()


def test_figure1_page(browser, tmp_path):
    sched = example("figure1")
    html = write_html(tmp_path / "schedule.html", sched, sched["graph"])
    page, errors, requests = open_page(browser, html)
    assert page.locator("#graph g.node").count() == 3
    assert page.locator("#timeline g.iteration").count() == 2
    assert page.locator("#timeline g.phase").count() == 3
    page.screenshot(path=str(tmp_path / "figure1.png"), full_page=True)
    check_loaded(errors, requests, html)
    page.close()
