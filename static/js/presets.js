/* Model presets of the task profile form and the sizing page (SPEC 6.3), loaded by those pages
 * only, in app.js's manner: no inline script (CSP), behaviour hangs off a data attribute.
 * - select[data-preset-picker]: choosing a preset writes its option's data-fields (JSON: field
 *   name -> value) into the form's fields of those names, and its data-blank-fields into those
 *   still blank. The select has no name, so it is never submitted; its change event bubbles to
 *   the form after this, so an htmx form re-evaluates with the filled values.
 */
(function () {
  "use strict";

  function fill(form, json, onlyBlank) {
    var values;
    try { values = JSON.parse(json || "{}"); } catch (e) { return; }
    Object.keys(values).forEach(function (name) {
      var input = form.elements.namedItem(name);
      if (!input || input.type === "checkbox" || (onlyBlank && input.value !== "")) return;
      input.value = values[name];
    });
  }

  function bindPresets(root) {
    root.querySelectorAll("select[data-preset-picker]").forEach(function (select) {
      if (select.dataset.presetBound) return;
      select.dataset.presetBound = "1";
      select.addEventListener("change", function () {
        var option = select.options[select.selectedIndex];
        if (!option || !option.dataset.fields || !select.form) return;
        fill(select.form, option.dataset.fields, false);
        fill(select.form, option.dataset.blankFields, true);
      });
    });
  }

  if (document.readyState !== "loading") bindPresets(document);
  else document.addEventListener("DOMContentLoaded", function () { bindPresets(document); });
  document.addEventListener("htmx:load", function (event) { bindPresets(event.target || document); });
})();
