/* Starts Swagger UI on /docs from our own file, so the page needs no inline script. */
window.addEventListener("DOMContentLoaded", function () {
  "use strict";
  window.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
});
