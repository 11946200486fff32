"""The browser view of a schedule: one self-contained HTML page of schedule, graph, profile and validation."""
from __future__ import annotations

from twill.view.page import render_html, write_html

__all__ = ["render_html", "write_html"]
