/* Starts Swagger UI on /docs from our own file, so the page needs no inline script.
   The schema's URL comes from the page, where a --root-path prefix has been applied. */
window.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  window.SwaggerUIBundle({ url: root.dataset.url, dom_id: "#swagger-ui", deepLinking: true });
});
