"""The HTML view: one node element per op, one row per unit, offline (no network URLs)."""
import json
import re

from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.graph.io import graph_to_dict
from twill.schedule.model import Schedule
from twill.view.html import render_html


def test_page_has_every_node_and_unit_row():
    g = LoopGraph("fig1", (Op("S", "dot", "tc", cycles=1, rrt=(Reservation("tc", 0, 1),), ir=("%s = ttng.warp_group_dot",)),
                           Op("P", "sfu", "sfu", cycles=1, rrt=(Reservation("sfu", 0, 1),)),
                           Op("O", "dot", "tc", cycles=1, rrt=(Reservation("tc", 0, 1),))),
                  (Dep("S", "P", 1, 0, True), Dep("P", "O", 1, 0), Dep("O", "O", 1, 1)))
    s = Schedule(ii=2, length=4, start=(("S", 0), ("P", 2), ("O", 3)), status="optimal", lower_bound=2,
                 warp=(("S", 0), ("P", 1), ("O", 0)))
    page = render_html(s.to_dict(), graph_to_dict(g))
    assert len(re.findall(r'<g class="node"', page)) == 3
    assert set(re.findall(r'data-wg="(\d)"', page)) == {"0", "1"}
    assert page.count('class="rowlab"') == 2 + (2 + 2)  # mrt: 2 units; timeline: 2 units + 2 groups
    assert "ttng.warp_group_dot" in page            # hover text carries the TTGIR
    assert not re.search(r'(src|href)="https?://', page)
    assert "steady state" in page
