// The ampprof HTML report (reports/html): sortable and filterable tables, copy buttons, and the
// timelines' zoom and hover. Plain JavaScript, no library, nothing loaded from the network; the page is
// complete without it.
"use strict";
(function () {
  function formatMicros(us) {
    const ns = us * 1000;
    if (Math.abs(ns) < 1000) return ns.toFixed(0) + " ns";
    if (Math.abs(us) < 1000) return us.toPrecision(3) + " us";
    if (Math.abs(us) < 1e6) return (us / 1000).toPrecision(3) + " ms";
    return (us / 1e6).toPrecision(3) + " s";
  }

  // ---- Tables: click a header to sort; type in a filter box to hide rows that do not match. ----
  function sortBy(table, th) {
    const column = Array.prototype.indexOf.call(th.parentNode.children, th);
    const numeric = th.dataset.type === "num";
    const descending = th.getAttribute("aria-sort") !== "descending" && (numeric || th.getAttribute("aria-sort") === "ascending");
    table.querySelectorAll("th").forEach(function (other) { other.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", descending ? "descending" : "ascending");
    const body = table.tBodies[0];
    const rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      const x = a.cells[column], y = b.cells[column];
      const order = numeric ? Number(x.dataset.v) - Number(y.dataset.v)
                            : x.textContent.localeCompare(y.textContent);
      return descending ? -order : order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th) {
      th.addEventListener("click", function () { sortBy(table, th); });
    });
  });
  document.querySelectorAll("input.filter").forEach(function (input) {
    const table = document.getElementById(input.dataset.table);
    if (!table) return;
    input.addEventListener("input", function () {
      const needle = input.value.toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        row.hidden = needle !== "" && row.textContent.toLowerCase().indexOf(needle) < 0;
      });
    });
  });

  // ---- Copy buttons of the code blocks in the fixes. ----
  document.querySelectorAll(".code .copy").forEach(function (button) {
    button.addEventListener("click", function () {
      const code = button.parentNode.querySelector("code").textContent;
      const done = function () { button.textContent = "copied"; setTimeout(function () { button.textContent = "copy"; }, 1500); };
      const fallback = function () {
        const range = document.createRange();
        range.selectNodeContents(button.parentNode.querySelector("code"));
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        try { if (document.execCommand("copy")) done(); } catch (e) { /* the text stays selected */ }
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(code).then(done, fallback);
      } else {
        fallback();
      }
    });
  });

  // ---- Timelines: zoom by the SVG's viewBox, tooltips from the JSON block. ----
  const tooltip = document.querySelector(".tooltip");
  function escapeText(text) {
    const span = document.createElement("span");
    span.textContent = text;
    return span.innerHTML;
  }
  function showTooltip(event, html) {
    tooltip.innerHTML = html;
    tooltip.hidden = false;
    const x = Math.min(event.clientX + 14, window.innerWidth - tooltip.offsetWidth - 8);
    const y = event.clientY + 16 + tooltip.offsetHeight > window.innerHeight ? event.clientY - tooltip.offsetHeight - 10
                                                                              : event.clientY + 16;
    tooltip.style.left = Math.max(4, x) + "px";
    tooltip.style.top = Math.max(4, y) + "px";
  }

  function niceStep(span, count) {
    const raw = span / count;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    const steps = [1, 2, 5, 10];
    for (let i = 0; i < steps.length; ++i) if (raw <= steps[i] * power) return steps[i] * power;
    return 10 * power;
  }

  function setUpTimeline(block) {
    const data = JSON.parse(block.querySelector(".tl-data").textContent);
    const svg = block.querySelector(".tl-svg");
    const plot = block.querySelector(".tl-plot");
    const axis = block.querySelector(".tl-axis");
    const height = svg.viewBox.baseVal.height;
    const full = data.window_us > 0 ? data.window_us : 1;
    let view = { from: 0, to: full };

    function draw() {
      svg.setAttribute("viewBox", view.from + " 0 " + (view.to - view.from) + " " + height);
      axis.textContent = "";
      const span = view.to - view.from;
      const step = niceStep(span, 8);
      for (let t = Math.ceil(view.from / step) * step; t <= view.to; t += step) {
        const label = document.createElement("span");
        const at = 100 * (t - view.from) / span;
        label.style.left = at + "%";
        // Centred on its tick, but kept inside the plot at both ends.
        if (at > 90) label.style.transform = "translateX(-100%)";
        else if (at > 3) label.style.transform = "translateX(-50%)";
        label.textContent = formatMicros(t);
        axis.appendChild(label);
      }
    }
    function zoomTo(from, to) {
      const minimum = 0.01;  // 10 ns
      if (to - from < minimum) { const mid = (from + to) / 2; from = mid - minimum / 2; to = mid + minimum / 2; }
      view = { from: Math.max(0, from), to: Math.min(full, to) };
      draw();
    }
    function zoomBy(factor) {
      const mid = (view.from + view.to) / 2, half = (view.to - view.from) * factor / 2;
      zoomTo(mid - half, mid + half);
    }
    function timeAt(clientX) {
      const box = svg.getBoundingClientRect();
      return view.from + (clientX - box.left) / box.width * (view.to - view.from);
    }

    block.querySelectorAll("[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        if (button.dataset.zoom === "in") zoomBy(0.5);
        else if (button.dataset.zoom === "out") zoomBy(2);
        else zoomTo(0, full);
      });
    });

    // Drag across the plot to zoom into that range.
    let dragFrom = null, selection = null;
    svg.addEventListener("mousedown", function (event) {
      dragFrom = event.clientX;
      selection = document.createElement("div");
      selection.className = "tl-selection";
      plot.appendChild(selection);
      event.preventDefault();
    });
    window.addEventListener("mousemove", function (event) {
      if (dragFrom === null) return;
      const box = plot.getBoundingClientRect();
      const a = Math.max(0, Math.min(dragFrom, event.clientX) - box.left);
      const b = Math.min(box.width, Math.max(dragFrom, event.clientX) - box.left);
      selection.style.left = a + "px";
      selection.style.width = (b - a) + "px";
    });
    window.addEventListener("mouseup", function (event) {
      if (dragFrom === null) return;
      if (Math.abs(event.clientX - dragFrom) > 3) {
        zoomTo(timeAt(Math.min(dragFrom, event.clientX)), timeAt(Math.max(dragFrom, event.clientX)));
      }
      dragFrom = null;
      selection.remove();
      selection = null;
    });
    svg.addEventListener("wheel", function (event) {
      if (!event.ctrlKey) return;  // the page scrolls; ctrl + wheel zooms at the pointer
      event.preventDefault();
      const at = timeAt(event.clientX), factor = event.deltaY > 0 ? 1.25 : 0.8;
      zoomTo(at - (at - view.from) * factor, at + (view.to - at) * factor);
    }, { passive: false });

    svg.addEventListener("mousemove", function (event) {
      const target = event.target;
      if (target.dataset.n !== undefined) {
        const category = data.categories[Number(target.parentNode.dataset.c)];
        const lane = Math.floor(Number(target.getAttribute("y")) / data.lane_height);
        const start = Number(target.getAttribute("x")), duration = Number(target.getAttribute("width"));
        let html = "<b>" + escapeText(category) + "</b> on stream " + data.streams[lane] + "<br>" +
                   escapeText(data.names[Number(target.dataset.n)]) + "<br>start " + formatMicros(start) +
                   ", duration " + formatMicros(duration);
        if (target.dataset.m) {
          html += "<br>" + target.dataset.m + " kernels drawn as one (" + formatMicros(Number(target.dataset.b)) +
                  " of kernel time); named after the longest";
        }
        showTooltip(event, html);
      } else if (target.dataset.g !== undefined) {
        showTooltip(event, "<b>GPU idle</b>: " + escapeText(data.causes[Number(target.dataset.g)]) + "<br>" +
                           formatMicros(Number(target.getAttribute("width"))) + " from " +
                           formatMicros(Number(target.getAttribute("x"))));
      } else {
        tooltip.hidden = true;
      }
    });
    svg.addEventListener("mouseleave", function () { tooltip.hidden = true; });
    draw();
  }
  document.querySelectorAll(".timeline").forEach(setUpTimeline);
  // Everything is wired up; the browser test (tests/reports/html) waits for this mark.
  document.documentElement.setAttribute("data-ready", "true");
})();
