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
