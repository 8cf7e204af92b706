// Forma dashboard script. Every page works without it; it adds two things.
"use strict";

// The copy button. A button with data-copy="<input id>" copies that input's (or
// textarea's) value and says so in the element with the same data-copy-status
// (an aria-live region). Without this script the button stays hidden and the
// text can still be selected and copied by hand.
document.querySelectorAll("button[data-copy]").forEach((button) => {
  const id = button.dataset.copy;
  const input = document.getElementById(id);
  const status = document.querySelector(`[data-copy-status="${CSS.escape(id)}"]`);
  if (!input || !status) {
    return;
  }
  button.hidden = false;
  button.addEventListener("click", async () => {
    status.textContent = "";
    try {
      // The Clipboard API exists only on https and on localhost.
      await navigator.clipboard.writeText(input.value);
      status.textContent = "Copied";
    } catch {
      input.focus();
      input.select();
      status.textContent = "Selected: press Ctrl+C (⌘C on a Mac) to copy it.";
    }
  });
});

// Progress while a slow post runs. A form with data-busy="<sentence>" disables
// its submit buttons once sent (no second, charged, post) and shows the
// sentence with an indeterminate progress bar in its [data-busy-status] element
// (role="status", so screen readers announce it). Coming back to the page
// through the browser's history makes it usable again.
document.querySelectorAll("form[data-busy]").forEach((form) => {
  const status = form.querySelector("[data-busy-status]");
  const buttons = form.querySelectorAll("button[type=submit]");
  form.addEventListener("submit", () => {
    buttons.forEach((b) => { b.disabled = true; });
    if (status) {
      // The sentence says it all; the bar is only for the eye.
      const bar = document.createElement("progress");
      bar.setAttribute("aria-hidden", "true");
      status.replaceChildren(bar, form.dataset.busy);
    }
  });
  window.addEventListener("pageshow", () => {
    buttons.forEach((b) => { b.disabled = false; });
    status?.replaceChildren();
  });
});
