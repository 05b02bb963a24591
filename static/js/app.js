/* The app's only script. No inline scripts anywhere (CSP): behaviour hangs off data attributes.
 * - [data-autosubmit]: submit the surrounding form on change (team switcher, filters).
 * - [data-confirm]: ask before submitting a destructive form (on a form, or on one of its
 *   submit buttons: approve and reject say what is decided).
 * - table[data-sortable]: click a header with data-sort to sort rows (numbers or text).
 * - [data-plotly]: a <script type="application/json"> id holding a Plotly figure, drawn when the
 *   chart comes near the screen (after page load and after every htmx swap). plotly.js (the
 *   partial bundle named by <body data-plotly-src>, and in Chinese the locale named by
 *   data-plotly-locale-src) is fetched only then: a page whose charts are never scrolled to, or
 *   that has none, never downloads it. Until drawn, the chart's box keeps its size (CSS), so
 *   nothing moves when it appears. Charts inside [data-charts-now] (the decision record, read on
 *   paper) are drawn at once, and before printing every chart of the page is drawn; inside
 *   [data-chart-height] they are drawn that many pixels high.
 * - [data-print]: a button that opens the browser's print dialog ("Save as PDF").
 * - [data-menu-toggle]: the header's menu button on a narrow screen, a disclosure
 *   (<button aria-expanded aria-controls>): it shows and hides the element it controls; Escape
 *   closes it and gives the focus back to the button. Without JavaScript the menu stays open
 *   (css/nojs.css).
 * - .table-wrap: a table wider than the screen scrolls inside its box; while it does, the box
 *   takes the keyboard focus (tabindex=0) so it can be scrolled without a mouse.
 * - A drawn chart holds plotly.js's toolbar buttons, which an image (role=img, its placeholder's
 *   role) may not: it becomes a group with the same name.
 * - form[data-autosave] (a checklist answer): htmx saves it as it is typed (hx-trigger). What was
 *   typed and not yet stored is sent when the page is left or hidden (`pagehide`,
 *   `visibilitychange`) by a keepalive request with the CSRF token, so a click on a link right
 *   after typing loses nothing. A save that fails says so on the answer (data-save-failed) and
 *   keeps the text; leaving the page then asks first.
 * - form[data-warn-unsaved] (the long forms: profile, review, benchmark, offer): leaving the page
 *   with changes not submitted asks first (`beforeunload`); submitting clears it.
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

  // A submit button with data-confirm (approve, reject) asks first. In the capture phase, so a
  // refusal stops htmx's own submit handler too.
  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (!button || !button.dataset.confirm || window.confirm(button.dataset.confirm)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);

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

  var plotlyLoading = null;

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = reject;
      document.head.appendChild(script);
    });
  }

  function loadPlotly() {
    if (window.Plotly) return Promise.resolve(window.Plotly);
    if (!plotlyLoading) {
      var body = document.body.dataset;
      plotlyLoading = loadScript(body.plotlySrc).then(function () {
        return body.plotlyLocaleSrc ? loadScript(body.plotlyLocaleSrc) : null;
      }).then(function () { return window.Plotly; });
    }
    return plotlyLoading;
  }

  function drawChart(el) {
    if (el.dataset.drawn) return;
    var source = document.getElementById(el.dataset.plotly);
    if (!source) return;
    var figure;
    try { figure = JSON.parse(source.textContent); } catch (e) { return; }
    el.dataset.drawn = "1";
    loadPlotly().then(function (Plotly) {
      var layout = Object.assign({ autosize: true, margin: { t: 40, r: 16, b: 48, l: 56 } }, figure.layout || {});
      // A document (the decision record) draws its charts lower, to print a page's width each.
      var frame = el.closest("[data-chart-height]");
      if (frame) layout.height = Number(frame.dataset.chartHeight);
      var config = { responsive: true, displaylogo: false };
      if (document.body.dataset.plotlyLocale) config.locale = document.body.dataset.plotlyLocale;
      Plotly.newPlot(el, figure.data || [], layout, config).then(function () {
        if (el.getAttribute("role") === "img") el.setAttribute("role", "group");
        el.classList.add("chart--drawn");
      });
    }).catch(function () { delete el.dataset.drawn; });
  }

  var chartObserver = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (!entry.isIntersecting) return;
      chartObserver.unobserve(entry.target);
      drawChart(entry.target);
    });
  }, { rootMargin: "200px 0px" }) : null;

  function drawCharts(root) {
    root.querySelectorAll("[data-plotly]").forEach(function (el) {
      if (el.dataset.drawn || el.dataset.watched) return;
      if (!chartObserver || el.closest("[data-charts-now]")) { drawChart(el); return; }
      el.dataset.watched = "1";
      chartObserver.observe(el);
    });
  }

  function bindPrint(root) {
    root.querySelectorAll("[data-print]").forEach(function (button) {
      if (button.dataset.printBound) return;
      button.dataset.printBound = "1";
      button.addEventListener("click", function () { window.print(); });
    });
  }

  function bindMenu(root) {
    root.querySelectorAll("[data-menu-toggle]").forEach(function (button) {
      if (button.dataset.menuBound) return;
      button.dataset.menuBound = "1";
      var menu = document.getElementById(button.getAttribute("aria-controls"));
      if (!menu) return;
      function set(open) {
        button.setAttribute("aria-expanded", open ? "true" : "false");
        menu.classList.toggle("is-open", open);
      }
      button.addEventListener("click", function () {
        set(button.getAttribute("aria-expanded") !== "true");
      });
      document.addEventListener("keydown", function (event) {
        if (event.key !== "Escape" || button.getAttribute("aria-expanded") !== "true") return;
        set(false);
        button.focus();
      });
    });
  }

  function markScrollRegions(root) {
    var wraps = Array.prototype.slice.call(root.querySelectorAll(".table-wrap"));
    if (root.matches && root.matches(".table-wrap")) wraps.push(root);
    wraps.forEach(function (wrap) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) wrap.tabIndex = 0;
      else wrap.removeAttribute("tabindex");
    });
  }

  var resizeTimer = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () { markScrollRegions(document); }, 150);
  });

  // --- Nothing typed is lost -------------------------------------------------------------

  // What the person typed in a form: its visible fields (not the CSRF token or version tokens).
  function typedState(form) {
    var parts = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") return;
      var value = el.type === "checkbox" || el.type === "radio" ? String(el.checked) : el.value;
      parts.push(el.name + "=" + value);
    });
    return parts.join("\n");
  }

  function autosaveState(form) {
    if (!form._autosave) {
      form._autosave = { saved: typedState(form), flushed: null, inFlight: 0, failed: false, flushing: null };
    }
    return form._autosave;
  }

  function csrfToken(form) {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function showSaveFailed(form) {
    var target = document.querySelector(form.getAttribute("hx-target"));
    if (!target || !form.dataset.saveFailed) return;
    var note = target.querySelector(".save-state--failed");
    if (!note) {
      note = document.createElement("span");
      note.className = "save-state save-state--error save-state--failed";
      note.setAttribute("role", "alert");
      target.appendChild(note);
    }
    note.textContent = form.dataset.saveFailed;
  }

  // Send what is typed and not stored, with a request that outlives the page. While a save of
  // this form is still on its way, its version token is left out: that save changes it.
  function flushAnswer(form) {
    var st = autosaveState(form);
    var now = typedState(form);
    if (now === st.saved || now === st.flushed || !window.fetch) return;
    st.flushed = now;
    var data = new FormData(form);
    if (st.inFlight) {
      var seen = form.querySelector("input[name$='-seen']");
      if (seen) data.delete(seen.name);
    }
    st.flushing = fetch(form.action, {
      method: "POST", body: data, keepalive: true, credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken(form) },
    }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.text();
    }).then(function (html) {
      // Still on the page (it was only hidden): show the result, which holds the new token.
      var target = document.querySelector(form.getAttribute("hx-target"));
      if (target && window.htmx) window.htmx.swap(target, html, { swapStyle: "outerHTML" });
      st.failed = !!(target && form.querySelector(".save-state--error"));
      if (!st.failed) st.saved = now;
    }).catch(function () {
      st.failed = true;
      showSaveFailed(form);
    }).then(function () { st.flushing = null; st.flushed = null; });
  }

  function flushAnswers() {
    document.querySelectorAll("form[data-autosave]").forEach(flushAnswer);
  }

  window.addEventListener("pagehide", flushAnswers);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") flushAnswers();
  });

  function autosaveForm(event) {
    var form = event.detail && event.detail.elt;
    return form && form.matches && form.matches("form[data-autosave]") ? form : null;
  }

  // A save waits for a flush of the same answer still under way (it brings the new token).
  document.addEventListener("htmx:confirm", function (event) {
    var form = autosaveForm(event);
    if (!form || !autosaveState(form).flushing) return;
    event.preventDefault();
    autosaveState(form).flushing.then(function () { event.detail.issueRequest(true); });
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = autosaveForm(event);
    if (!form) return;
    var st = autosaveState(form);
    st.inFlight += 1;
    event.detail.xhr._typed = typedState(form);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = autosaveForm(event);
    if (!form) return;
    var st = autosaveState(form);
    st.inFlight = Math.max(0, st.inFlight - 1);
    if (event.detail.successful) {
      st.failed = !!form.querySelector(".save-state--error");
      if (!st.failed) st.saved = event.detail.xhr._typed;
    } else {
      st.failed = true;
      showSaveFailed(form);
    }
  });

  function bindAutosave(root) {
    root.querySelectorAll("form[data-autosave]").forEach(autosaveState);
  }

  function bindUnsaved(root) {
    root.querySelectorAll("form[data-warn-unsaved]").forEach(function (form) {
      if (form.dataset.unsavedBound) return;
      form.dataset.unsavedBound = "1";
      function dirty() { form.dataset.dirty = "1"; }
      form.addEventListener("input", dirty);
      form.addEventListener("change", dirty);
      form.addEventListener("submit", function () { delete form.dataset.dirty; });
    });
  }

  // Leaving with changes nowhere stored asks first: a long form not submitted, or an answer
  // whose save failed (what is typed is still on the page, not on the server).
  window.addEventListener("beforeunload", function (event) {
    var unsaved = document.querySelector("form[data-warn-unsaved][data-dirty]") !== null;
    document.querySelectorAll("form[data-autosave]").forEach(function (form) {
      var st = autosaveState(form);
      if (st.failed && typedState(form) !== st.saved) unsaved = true;
    });
    if (!unsaved) return;
    event.preventDefault();
    event.returnValue = "";
  });

  function bindAll(root) {
    bindAutosave(root);
    bindUnsaved(root);
    bindMenu(root);
    markScrollRegions(root);
    bindAutosubmit(root);
    bindConfirm(root);
    bindSortable(root);
    bindPrint(root);
    drawCharts(root);
  }

  // A printout has every chart, not only those scrolled to (plotly.js, once loaded, draws at once).
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("[data-plotly]").forEach(drawChart);
  });

  onReady(function () { bindAll(document); });
  document.addEventListener("htmx:load", function (event) { bindAll(event.target || document); });
})();
