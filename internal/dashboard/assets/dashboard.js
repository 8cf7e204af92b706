// Forma dashboard: the copy button. A button with data-copy="<input id>" copies
// that input's value and says so in the element with the same data-copy-status
// (an aria-live region). Without this script the button stays hidden and the
// input can still be selected and copied by hand.
"use strict";

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
      status.textContent = "The key is selected: press Ctrl+C (⌘C on a Mac) to copy it.";
    }
  });
});
