// twill schedule view: hover an op anywhere to see its TTGIR, source line and costs, and to
// highlight the same op in every chart. Data comes from the inline JSON block #twill-data.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("twill-data").textContent);
  var tip = document.getElementById("tip");
  var current = null;

  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  function row(k, v) { return v === null || v === undefined || v === "" ? "" : "<tr><td>" + esc(k) + "</td><td>" + esc(v) + "</td></tr>"; }

  function content(el) {
    var id = el.getAttribute("data-id"), n = data.nodes[id];
    if (!n) return null;
    var h = '<div class="t">' + esc(id) + ' <span class="tag">' + esc(n.kind) + '</span><span class="tag">' + esc(n.unit) + "</span>";
    if (n.wg !== null) h += '<span class="tag" style="background:' + esc(n.colour) + ';color:#111">' + esc(n.wg_label) + "</span>";
    h += "</div><table>";
    h += row("issues at", n.start_text);
    h += row("cost", n.cost_text);
    h += row("measured", n.measured_text);
    h += row("memory", n.memory_text);
    h += row("source", n.source);
    h += row("folded ops", n.ops);
    h += row("here", el.getAttribute("data-note"));
    h += "</table>";
    if (n.ir.length) h += "<pre>" + n.ir.map(esc).join("\n") + "</pre>";
    else h += '<div class="hint">no TTGIR lines recorded for this node</div>';
    return h;
  }

  function place(ev) {
    var pad = 16, w = tip.offsetWidth, h = tip.offsetHeight;
    var x = ev.clientX + pad, y = ev.clientY + pad;
    if (x + w > window.innerWidth - 8) x = Math.max(8, ev.clientX - w - pad);
    if (y + h > window.innerHeight - 8) y = Math.max(8, window.innerHeight - h - 8);
    tip.style.left = x + "px";
    tip.style.top = y + "px";
  }

  function highlight(id, on) {
    var sel = '[data-id="' + CSS.escape(id) + '"], [data-src="' + CSS.escape(id) + '"], [data-dst="' + CSS.escape(id) + '"]';
    document.querySelectorAll(sel).forEach(function (e) { e.classList.toggle("hl", on); });
    document.body.classList.toggle("hovering", on);
  }

  function hide() {
    if (current !== null) highlight(current, false);
    current = null;
    tip.hidden = true;
  }

  document.addEventListener("mouseover", function (ev) {
    var el = ev.target.closest ? ev.target.closest("[data-id]") : null;
    if (!el) { hide(); return; }
    var html = content(el);
    if (html === null) { hide(); return; }
    if (current !== null && current !== el.getAttribute("data-id")) highlight(current, false);
    current = el.getAttribute("data-id");
    highlight(current, true);
    tip.innerHTML = html;
    tip.hidden = false;
    place(ev);
  });
  document.addEventListener("mousemove", function (ev) { if (!tip.hidden) place(ev); });
  document.addEventListener("mouseleave", hide);
})();
