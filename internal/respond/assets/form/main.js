// Forma form page: progressive enhancement of the server-rendered form.
//
// Without this script the page is a plain HTML form that posts every question at
// once (multi-step forms too) and the server answers with errors or a thank-you
// page. With it, questions appear and disappear as the respondent answers
// (visibility.js), optional sliders and ratings can be cleared (questions.js), and
// a multi-step form goes one question at a time, saving each answer and resuming
// after a reload (steps.js, state.js, uploads.js). In the owner's preview
// (data-preview) nothing is saved, uploaded or submitted. Problems are said with the
// server's own sentences (messages.js). In an iframe of another site (?embed=1)
// the page tells the embedding page its height (frame.js).
//
// The modules are native ES modules with no build step: the page loads this one
// (after boot.js, which marks the page early) and the browser follows the imports.

import { startFrame } from "./frame.js";
import { clearError } from "./messages.js";
import { createPage, questionOf } from "./page.js";
import { decorate, setupQuestions } from "./questions.js";
import { startSteps } from "./steps.js";
import { refresh } from "./visibility.js";
import { word } from "./words.js";

const root = document.documentElement;
root.classList.add("js");
root.setAttribute("data-forma-started", "");
if (root.hasAttribute("data-embed")) startFrame();

function ready(fn) {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", fn);
  } else {
    fn();
  }
}

ready(() => {
  const summary = document.getElementById("error-summary");
  if (summary) summary.focus();
  const form = document.getElementById("forma-form");
  if (!form) return;
  try {
    setup(form);
  } catch (err) {
    // Fall back to the plain form rather than leave a half-enhanced page.
    root.classList.remove("js");
    if (window.console) console.error(err);
  }
});

function setup(form) {
  const page = createPage(form);
  let steps = null;
  function changed(q) {
    if (q) {
      decorate(page, q);
      if (page.stepping) clearError(page, q);
    }
    refresh(page);
    if (steps) steps.update();
  }
  page.onVisible = () => { if (steps) steps.update(); };
  setupQuestions(page, changed);
  form.addEventListener("input", (e) => changed(questionOf(page, e.target)));
  form.addEventListener("change", (e) => changed(questionOf(page, e.target)));
  refresh(page);
  if (page.stepping) steps = startSteps(page);
  if (page.preview) previewSubmit(page);
}

// previewSubmit lets the owner's preview go through its steps, but its submit
// button (disabled in the HTML, so that nothing can be sent without this script)
// only says that nothing is recorded.
function previewSubmit(page) {
  document.getElementById("forma-next").disabled = false;
  if (page.stepping) return; // steps.js says it at the last step
  page.form.addEventListener("submit", (e) => {
    e.preventDefault();
    page.say(word("previewSaid"));
  });
}
