/* Small progressive enhancements; every page works without this file. */

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
