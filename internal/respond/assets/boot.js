// Forma form page, first script. It is a classic script in the head, so it runs
// before the page is drawn: it marks the page "js" at once, and the stylesheet
// lays the page out for the script (multi-step questions and questions hidden by
// logic stay out of sight) without a flash of the plain form. The page script
// itself is a set of ES modules (form/main.js and its imports), which run only
// once the document is parsed.
//
// The mark is set only where modules run, and taken back if the modules did not
// start by the time the document is parsed (a failed download, a syntax this
// browser does not know): the page then stays the plain HTML form, which works
// without JavaScript.
(function () {
  "use strict";
  var root = document.documentElement;
  if (!("noModule" in HTMLScriptElement.prototype)) return;
  root.classList.add("js");
  // Module scripts run before DOMContentLoaded; main.js marks its start.
  document.addEventListener("DOMContentLoaded", function () {
    if (!root.hasAttribute("data-forma-started")) root.classList.remove("js");
  });
})();
