/* The app's only script. No inline scripts anywhere (CSP): behaviour hangs off data attributes.
 * - [data-autosubmit]: submit the surrounding form on change (team switcher, filters).
 * - [data-confirm]: ask before submitting a destructive form.
 * - table[data-sortable]: click a header with data-sort to sort rows (numbers or text).
 * - [data-plotly]: a <script type="application/json"> id holding a Plotly figure; drawn once
 *   plotly.js is present, after page load and after every htmx swap.
 */
(function () {
  "use strict";

  function onReady(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  function bindAutosubmit(root) {
    root.querySelectorAll("[data-autosubmit]").forEach(function (el) {
      if (el.dataset.bound) return;
      el.dataset.bound = "1";
      el.addEventListener("change", function () {
        if (el.form) el.form.requestSubmit ? el.form.requestSubmit() : el.form.submit();
      });
    });
  }

  function bindConfirm(root) {
    root.querySelectorAll("form[data-confirm]").forEach(function (form) {
      if (form.dataset.confirmBound) return;
      form.dataset.confirmBound = "1";
      form.addEventListener("submit", function (event) {
        if (!window.confirm(form.dataset.confirm)) event.preventDefault();
      });
    });
  }

  function cellValue(row, index) {
    var cell = row.children[index];
    if (!cell) return "";
    var raw = cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent.trim();
    var num = parseFloat(raw);
    return raw !== "" && !isNaN(num) && isFinite(raw) ? num : raw.toLowerCase();
  }

  function bindSortable(root) {
    root.querySelectorAll("table[data-sortable]").forEach(function (table) {
      if (table.dataset.sortBound) return;
      table.dataset.sortBound = "1";
      var headers = table.querySelectorAll("th[data-sort]");
      headers.forEach(function (th) {
        th.tabIndex = 0;
        function sort() {
          var index = Array.prototype.indexOf.call(th.parentNode.children, th);
          var ascending = th.getAttribute("aria-sort") !== "ascending";
          headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
          th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
          var body = table.tBodies[0];
          var rows = Array.prototype.slice.call(body.rows);
          rows.sort(function (a, b) {
            var x = cellValue(a, index), y = cellValue(b, index);
            if (x === y) return 0;
            if (x === "" || x === "—") return 1;
            if (y === "" || y === "—") return -1;
            return (x < y ? -1 : 1) * (ascending ? 1 : -1);
          });
          rows.forEach(function (r) { body.appendChild(r); });
        }
        th.addEventListener("click", sort);
        th.addEventListener("keydown", function (e) { if (e.key === "Enter") sort(); });
      });
    });
  }

  function drawCharts(root) {
    if (!window.Plotly) return;
    root.querySelectorAll("[data-plotly]").forEach(function (el) {
      if (el.dataset.drawn) return;
      var source = document.getElementById(el.dataset.plotly);
      if (!source) return;
      var figure;
      try { figure = JSON.parse(source.textContent); } catch (e) { return; }
      el.dataset.drawn = "1";
      var layout = Object.assign({ autosize: true, margin: { t: 40, r: 16, b: 48, l: 56 } }, figure.layout || {});
      window.Plotly.newPlot(el, figure.data || [], layout, { responsive: true, displaylogo: false });
    });
  }

  function bindAll(root) {
    bindAutosubmit(root);
    bindConfirm(root);
    bindSortable(root);
    drawCharts(root);
  }

  onReady(function () { bindAll(document); });
  document.addEventListener("htmx:load", function (event) { bindAll(event.target || document); });
  window.addEventListener("load", function () { drawCharts(document); });
})();
