/* Small progressive enhancements; every page works without this file. */

/* graph: highlight a node's lines on hover or keyboard focus (issue #4). Without this the
   graph is the same picture; every node and line is still a link with a <title>. */
(function () {
  "use strict";
  function light(svg, node) {
    var id = node.getAttribute("data-node");
    svg.classList.add("is-focused");
    node.classList.add("is-lit");
    svg.querySelectorAll(".graph-edge").forEach(function (edge) {
      var on = edge.getAttribute("data-source") === id || edge.getAttribute("data-target") === id;
      edge.classList.toggle("is-lit", on);
      if (on) {
        var other = edge.getAttribute(edge.getAttribute("data-source") === id ? "data-target" : "data-source");
        svg.querySelectorAll(".graph-node").forEach(function (n) {
          if (n.getAttribute("data-node") === other) { n.classList.add("is-lit"); }
        });
      }
    });
  }
  function clear(svg) {
    svg.classList.remove("is-focused");
    svg.querySelectorAll(".is-lit").forEach(function (el) { el.classList.remove("is-lit"); });
  }
  function setup(svg) {
    svg.querySelectorAll(".graph-node").forEach(function (node) {
      node.addEventListener("mouseenter", function () { clear(svg); light(svg, node); });
      node.addEventListener("focus", function () { clear(svg); light(svg, node); });
      node.addEventListener("mouseleave", function () { clear(svg); });
      node.addEventListener("blur", function () { clear(svg); });
    });
  }
  function init() { document.querySelectorAll("svg.graph").forEach(setup); }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
/* end graph */
