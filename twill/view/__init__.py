"""The browser view of a schedule: one self-contained HTML page drawn from schedule.json, graph.json
and, when present, profile.json and validation.json."""
from __future__ import annotations

from twill.view.html import render_html, write_html

__all__ = ["render_html", "write_html"]
