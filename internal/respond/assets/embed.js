// Forma embed script, served at /embed.js for other sites to load (README,
// Embedding). It shows forms of the Forma server it was loaded from:
//
//   <div data-forma-embed="SHARE_TOKEN"></div>       the form in the page
//   <button data-forma-popup="SHARE_TOKEN">…</button> opens it in an overlay
//   <script src="https://forms.example.com/embed.js" async></script>
//
// An inline form is an iframe of the form's page without its surroundings
// (/f/SHARE_TOKEN?embed=1). That page posts its height whenever it changes
// (frame.js); this script sets the iframe's height to it, so the form never
// scrolls inside the iframe. It takes a message only from the Forma server's
// origin and from an iframe it made itself. The popup is a panel over the page,
// closed with its close button, Esc, or a click beside it.
//
// Styles are set through the DOM (element.style), which a strict
// Content-Security-Policy of the embedding site allows, unlike a style sheet or
// attribute this script would add.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !script.src || !window.URL) return;
  var origin = new URL(script.src, location.href).origin;
  var inlineFrames = [];
  var popup = null; // the open popup: {overlay, frame, opener, restore}

  function frameFor(token, title) {
    var f = document.createElement("iframe");
    f.src = origin + "/f/" + encodeURIComponent(token) + "?embed=1";
    f.title = title || "Form";
    setStyle(f, { display: "block", width: "100%", border: "0", background: "transparent" });
    return f;
  }

  function setStyle(el, style) {
    for (var k in style) el.style[k] = style[k];
  }

  function inline(el) {
    if (el.hasAttribute("data-forma-ready")) return;
    el.setAttribute("data-forma-ready", "");
    var f = frameFor(el.getAttribute("data-forma-embed"), el.getAttribute("data-forma-title"));
    f.style.height = "480px";
    f.setAttribute("data-forma-inline", "");
    inlineFrames.push(f);
    el.appendChild(f);
  }

  function bindPopup(el) {
    if (el.hasAttribute("data-forma-ready")) return;
    el.setAttribute("data-forma-ready", "");
    el.addEventListener("click", function (e) {
      e.preventDefault();
      openPopup(el);
    });
  }

  function openPopup(opener) {
    if (popup) return;
    var title = opener.getAttribute("data-forma-title") || opener.textContent.trim() || "Form";
    var overlay = document.createElement("div");
    setStyle(overlay, { position: "fixed", top: "0", right: "0", bottom: "0", left: "0", zIndex: "2147483000",
      background: "rgba(16, 24, 40, 0.55)", display: "flex", justifyContent: "flex-end" });
    var panel = document.createElement("div");
    panel.setAttribute("role", "dialog");
    panel.setAttribute("aria-modal", "true");
    panel.setAttribute("aria-label", title);
    setStyle(panel, { position: "relative", width: "100%", maxWidth: "36rem", height: "100%", background: "#f2f4f7",
      boxShadow: "0 0 32px rgba(16, 24, 40, 0.3)", display: "flex", flexDirection: "column" });
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = "\u00d7";
    close.setAttribute("aria-label", opener.getAttribute("data-forma-close") || "Close");
    setStyle(close, { position: "absolute", top: "0.5rem", right: "0.5rem", width: "2.5rem", height: "2.5rem",
      border: "1px solid #6b7480", borderRadius: "50%", background: "#fff", color: "#1a1f26", fontSize: "1.5rem",
      lineHeight: "1", cursor: "pointer", zIndex: "1" });
    var frame = frameFor(opener.getAttribute("data-forma-popup"), title);
    setStyle(frame, { flex: "1", height: "100%", padding: "3.25rem 0.75rem 0", boxSizing: "border-box" });
    close.addEventListener("click", closePopup);
    overlay.addEventListener("click", function (e) { if (e.target === overlay) closePopup(); });
    panel.appendChild(close);
    panel.appendChild(frame);
    overlay.appendChild(panel);
    document.body.appendChild(overlay);
    popup = { overlay: overlay, frame: frame, opener: opener, restore: document.body.style.overflow };
    document.body.style.overflow = "hidden";
    close.focus();
  }

  function closePopup() {
    if (!popup) return;
    var p = popup;
    popup = null;
    p.overlay.parentNode.removeChild(p.overlay);
    document.body.style.overflow = p.restore;
    p.opener.focus();
  }

  window.addEventListener("message", function (e) {
    if (e.origin !== origin || !e.data || typeof e.data !== "object") return;
    if (e.data.type === "forma:escape" && popup && e.source === popup.frame.contentWindow) {
      closePopup();
      return;
    }
    if (e.data.type !== "forma:height") return;
    var h = e.data.height;
    if (typeof h !== "number" || !(h > 0) || h > 100000) return;
    for (var i = 0; i < inlineFrames.length; i++) {
      if (inlineFrames[i].contentWindow === e.source) inlineFrames[i].style.height = Math.ceil(h) + "px";
    }
  });

  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && popup) closePopup();
  });

  function scan() {
    var i, list = document.querySelectorAll("[data-forma-embed]");
    for (i = 0; i < list.length; i++) inline(list[i]);
    list = document.querySelectorAll("[data-forma-popup]");
    for (i = 0; i < list.length; i++) bindPopup(list[i]);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
})();
