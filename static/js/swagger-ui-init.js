/* Starts Swagger UI from the settings JSON in the page (no inline script: the CSP forbids it).
   A signed-in browser sends its CSRF token, which the API's session auth requires. */
(function () {
  "use strict";
  var body = document.body.dataset;
  var config = JSON.parse(document.getElementById("swagger-settings").textContent);
  config.dom_id = "#swagger-ui";
  config.presets = [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset];
  if (body.csrfToken) {
    config.requestInterceptor = function (request) {
      request.headers["X-CSRFToken"] = body.csrfToken;
      return request;
    };
  }
  SwaggerUIBundle(config);
})();
