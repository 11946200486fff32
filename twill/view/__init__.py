"""The browser view of a schedule: a self-contained HTML page (twill.view.html.render_html, write_html)."""
