/* Small progressive enhancements; every page works without this file. */

/* The incident list (issue 13): the search box, the URL and the results always agree; one
   history entry per search, not per keystroke; after a swap, focus goes to the results heading,
   the new count is announced and paging scrolls the results into view. */
(function () {
  "use strict";
  var typing = false; // the URL of the search being typed is in history: later keystrokes replace it

  function box() { return document.getElementById("q"); }
  function urlQuery() { return new URLSearchParams(location.search).get("q") || ""; }
  function isTyping(event) {
    return !!event && event.type === "keyup" && !!event.target && event.target.id === "q";
  }
  function triggering(detail) {
    return detail && detail.requestConfig ? detail.requestConfig.triggeringEvent : null;
  }
  function syncBox(always) {
    var q = box();
    if (q && (always || document.activeElement !== q) && q.value !== urlQuery()) {
      q.value = urlQuery();
    }
  }
  function announce() {
    var status = document.getElementById("results-status");
    var heading = document.getElementById("results-h");
    if (!status || !heading) { return; }
    var text = heading.textContent.trim();
    // the same words twice in a row are not read again: alternate a trailing no-break space
    status.textContent = status.textContent === text ? text + "\u00a0" : text;
  }
  function inView(el) {
    var rect = el.getBoundingClientRect();
    return rect.top >= 0 && rect.bottom <= (window.innerHeight || document.documentElement.clientHeight);
  }
  function focusResults() {
    var heading = document.getElementById("results-h");
    if (!heading) { return; }
    heading.focus({ preventScroll: true });
    if (!inView(heading)) { heading.scrollIntoView({ block: "start" }); }
  }
  function rememberList() {
    if (document.getElementById("results")) {
      try { sessionStorage.setItem("il-list", location.pathname + location.search); } catch (e) { /* private mode */ }
    }
  }

  document.addEventListener("htmx:beforeHistoryUpdate", function (event) {
    var update = event.detail.history;
    if (isTyping(triggering(event.detail))) {
      if (typing) { update.type = "replace"; }
      typing = true;
    } else {
      typing = false;
    }
    if (update.path === location.pathname + location.search) {
      update.type = "replace"; // never two entries for one URL (Enter after typing, a repeat click)
    }
  });
  document.addEventListener("focusout", function (event) {
    if (event.target && event.target.id === "q") { typing = false; } // blur commits the search
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.detail.target || !document.getElementById("results")) { return; }
    var byTyping = isTyping(triggering(event.detail));
    syncBox(false);
    announce();
    rememberList();
    syncFiltersToggle();
    if (!byTyping) {
      if (filtersOpen()) { refocus(); } else { focusResults(); }
    }
  });
  document.addEventListener("htmx:historyRestore", function () {
    typing = false;
    syncBox(true);
    rememberList();
    syncFiltersToggle();
  });

  /* Narrow screens: the Filters control opens the filter panel in place (without JavaScript
     it is a link to #filters, which CSS shows as :target). The panel stays open while filters
     are clicked; "Show N incidents" closes it and goes to the results. */
  var lastClicked = null;
  function filtersOpen() { return document.body.classList.contains("filters-open"); }
  function syncFiltersToggle() {
    document.querySelectorAll("[data-filters-toggle]").forEach(function (toggle) {
      toggle.setAttribute("aria-expanded", filtersOpen() ? "true" : "false");
    });
  }
  function setFilters(open) {
    document.body.classList.toggle("filters-open", open);
    syncFiltersToggle();
  }
  function refocus() {
    // after a click in the open panel, focus the control in the same place of the new panel
    var links = document.querySelectorAll("#filters a[href]");
    var target = lastClicked !== null && links[lastClicked] ? links[lastClicked] : document.getElementById("filters-h");
    if (target) { target.focus({ preventScroll: true }); }
  }
  document.addEventListener("click", function (event) {
    var el = event.target instanceof Element ? event.target : null;
    if (!el) { return; }
    var toggle = el.closest("[data-filters-toggle]");
    if (toggle) {
      event.preventDefault();
      setFilters(!filtersOpen());
      if (filtersOpen()) {
        var heading = document.getElementById("filters-h");
        if (heading) { heading.focus({ preventScroll: true }); heading.scrollIntoView({ block: "start" }); }
      }
      return;
    }
    if (el.closest('a.skip[href="#filters"]')) {
      // "Skip to filters": on a phone it opens the panel, as the Filters control does
      var panelToggle = document.querySelector("[data-filters-toggle]");
      var narrow = panelToggle && panelToggle.offsetParent !== null;
      var filtersHeading = document.getElementById("filters-h");
      if (filtersHeading) {
        event.preventDefault();
        if (narrow) { setFilters(true); }
        filtersHeading.focus({ preventScroll: true });
        filtersHeading.scrollIntoView({ block: "start" });
      }
      return;
    }
    if (el.closest("[data-filters-close]")) {
      event.preventDefault();
      setFilters(false);
      focusResults();
      return;
    }
    var link = el.closest("#filters a[href]");
    lastClicked = link ? Array.prototype.indexOf.call(document.querySelectorAll("#filters a[href]"), link) : null;
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && filtersOpen()) { setFilters(false); focusResults(); }
  });

  function init() {
    var heading = document.getElementById("filters-h");
    if (heading) { heading.setAttribute("tabindex", "-1"); }
    syncFiltersToggle();
    rememberList();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();

/* Copy link buttons (list and incident pages), and "back to the list" returning to the list
   this tab came from, with its filters (remembered by the list page above). */
(function () {
  "use strict";
  function init() {
    document.querySelectorAll("[data-copy-link]").forEach(function (button) {
      if (navigator.clipboard) { button.hidden = false; }
    });
    var back = document.querySelector("[data-back-to-list]");
    var list = null;
    try { list = sessionStorage.getItem("il-list"); } catch (e) { list = null; }
    if (back && list && list.indexOf("/incidents") === 0) { back.setAttribute("href", list); }
  }
  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("[data-copy-link]") : null;
    if (!button) { return; }
    var label = button.getAttribute("data-label") || button.textContent;
    var status = button.parentNode.querySelector("[data-copy-status]");
    button.setAttribute("data-label", label);
    function say(text) {
      button.textContent = text;
      if (status) { status.textContent = text; }
      window.setTimeout(function () { button.textContent = label; }, 2500);
    }
    navigator.clipboard.writeText(location.href).then(function () {
      say(button.getAttribute("data-done"));
    }, function () {
      say(button.getAttribute("data-failed"));
    });
  });
  document.addEventListener("htmx:afterSettle", init);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();


/* graph: highlight a node's lines on hover or keyboard focus (issue #4). Without this the
   graph is the same picture; every node and line is still a link with a <title>. */
/* ==== graph: templates/graph.html (issues #4, #14) ==========================================
   Without this file the picture is the same and every circle and line is a link with a <title>.
   With it:
   - the picture is one Tab stop (roving tabindex over the circles): Up/Down move within a
     column, Left/Right to the nearest circle of the other column, Home/End to a column's ends;
     lines leave the Tab order (the table below the picture has every one of them);
   - hovering or focusing a circle lights its lines and their other ends; a line, its two ends;
   - the line above the picture shows the full label of what is hovered or focused;
   - the table of lines sorts by any column (aria-sort says how). */
(function () {
  "use strict";
  function all(root, selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); }
  function titleOf(el) { var t = el.querySelector("title"); return t ? t.textContent : ""; }
  function yOf(node) { return parseFloat(node.querySelector("circle").getAttribute("cy")); }

  function clear(svg) {
    svg.classList.remove("is-focused");
    all(svg, ".is-lit").forEach(function (el) { el.classList.remove("is-lit"); });
  }
  function lightNode(svg, node) {
    var id = node.getAttribute("data-node");
    var ends = {};
    svg.classList.add("is-focused");
    node.classList.add("is-lit");
    all(svg, ".graph-edge").forEach(function (edge) {
      var source = edge.getAttribute("data-source"), target = edge.getAttribute("data-target");
      if (source === id || target === id) {
        edge.classList.add("is-lit");
        ends[source === id ? target : source] = true;
      }
    });
    all(svg, ".graph-node").forEach(function (n) {
      if (ends[n.getAttribute("data-node")]) { n.classList.add("is-lit"); }
    });
  }
  function lightEdge(svg, edge) {
    var ends = [edge.getAttribute("data-source"), edge.getAttribute("data-target")];
    svg.classList.add("is-focused");
    edge.classList.add("is-lit");
    all(svg, ".graph-node").forEach(function (n) {
      if (ends.indexOf(n.getAttribute("data-node")) >= 0) { n.classList.add("is-lit"); }
    });
  }

  function next(nodes, current, key) {
    var side = current.getAttribute("data-side");
    var same = nodes.filter(function (n) { return n.getAttribute("data-side") === side; });
    var i = same.indexOf(current);
    if (key === "ArrowDown") { return same[Math.min(i + 1, same.length - 1)]; }
    if (key === "ArrowUp") { return same[Math.max(i - 1, 0)]; }
    if (key === "Home") { return same[0]; }
    if (key === "End") { return same[same.length - 1]; }
    if (key === "ArrowLeft" || key === "ArrowRight") {
      var want = key === "ArrowLeft" ? "left" : "right";
      var other = nodes.filter(function (n) { return n.getAttribute("data-side") === want; });
      if (want === side || !other.length) { return current; }
      var y = yOf(current), best = other[0];
      other.forEach(function (n) { if (Math.abs(yOf(n) - y) < Math.abs(yOf(best) - y)) { best = n; } });
      return best;
    }
    return null;
  }

  function setup(svg) {
    var nodes = all(svg, ".graph-node");
    if (!nodes.length) { return; }
    var info = document.getElementById("graph-info");
    var keys = document.getElementById("graph-keys");
    function say(text) { if (info) { info.textContent = text; } }
    function rove(node) {
      nodes.forEach(function (n) { n.setAttribute("tabindex", n === node ? "0" : "-1"); });
    }
    all(svg, ".graph-edge").forEach(function (edge) {
      edge.setAttribute("tabindex", "-1");
      function on() { clear(svg); lightEdge(svg, edge); say(titleOf(edge)); }
      function off() { clear(svg); say(""); }
      edge.addEventListener("mouseenter", on);
      edge.addEventListener("focus", on);
      edge.addEventListener("mouseleave", off);
      edge.addEventListener("blur", off);
    });
    rove(nodes[0]);
    if (keys) { keys.hidden = false; }
    nodes.forEach(function (node) {
      function on() { clear(svg); lightNode(svg, node); say(titleOf(node)); }
      function off() { clear(svg); say(""); }
      node.addEventListener("mouseenter", on);
      node.addEventListener("focus", function () { rove(node); on(); });
      node.addEventListener("mouseleave", off);
      node.addEventListener("blur", off);
    });
    svg.addEventListener("keydown", function (event) {
      var current = event.target.closest ? event.target.closest(".graph-node") : null;
      var target = current && next(nodes, current, event.key);
      if (!target) { return; }
      event.preventDefault();
      rove(target);
      target.focus();
    });
  }

  function sortable(table) {
    var heads = all(table, "thead th");
    var body = table.tBodies[0];
    all(body, "tr").forEach(function (row, index) { row.setAttribute("data-index", String(index)); });
    heads.forEach(function (th, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "graph-sort";
      button.textContent = th.textContent;
      th.textContent = "";
      th.appendChild(button);
      button.addEventListener("click", function () {
        var numeric = th.getAttribute("data-type") === "number";
        var was = th.getAttribute("aria-sort");
        var ascending = was ? was !== "ascending" : !numeric;
        function key(row) {
          var cell = row.cells[column];
          return numeric ? parseFloat(cell.getAttribute("data-value")) : cell.textContent.trim();
        }
        var rows = all(body, "tr");
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          var order = numeric ? x - y : x.localeCompare(y, document.documentElement.lang);
          if (!ascending) { order = -order; }
          return order || a.getAttribute("data-index") - b.getAttribute("data-index");
        });
        rows.forEach(function (row) { body.appendChild(row); });
        heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      });
    });
  }

  function init() {
    all(document, "svg.graph:not(.graph-mini)").forEach(setup);
    all(document, "table.graph-lines").forEach(sortable);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
/* ==== end graph ============================================================================ */
