// Validation messages: what a respondent reads about a problem with an answer,
// and where it shows. The sentences are not written here: they are the server's,
// in the form's language (words.js), the same ones its own pages use. A problem
// the server reports comes with its code and parameters
// (each item of `fields` in a 400 answer); one the script finds itself is named by
// its code.

import { control, controls } from "./page.js";
import { fill, messages } from "./words.js";

// sentence says the problem code with its parameter values, filling each {name}
// of the sentence in one pass as the server does; an unknown code is said as
// "invalid".
export function sentence(code, params) {
  return fill(Object.prototype.hasOwnProperty.call(messages, code) ? messages[code] : messages.invalid, params);
}

// fieldSentence says an item of a 400 answer's `fields`.
export function fieldSentence(item) {
  return item ? sentence(item.code, item.params) : sentence("invalid");
}

function describedTarget(page, q) {
  return page.blocks[q.id].querySelector("fieldset") || control(q);
}

// showError shows text as the error of q, tied to its inputs for assistive tech.
export function showError(page, q, text) {
  const p = document.getElementById("q_" + q.id + "-error");
  p.querySelector(".error-text").textContent = text;
  p.hidden = false;
  page.blocks[q.id].classList.add("has-error");
  const target = describedTarget(page, q);
  const ids = (target.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
  if (ids.indexOf(p.id) < 0) ids.push(p.id);
  target.setAttribute("aria-describedby", ids.join(" "));
  controls(page, q).forEach((c) => { if (c.type !== "hidden") c.setAttribute("aria-invalid", "true"); });
}

export function clearError(page, q) {
  const p = document.getElementById("q_" + q.id + "-error");
  if (!p || p.hidden) return;
  p.hidden = true;
  p.querySelector(".error-text").textContent = "";
  page.blocks[q.id].classList.remove("has-error");
  const target = describedTarget(page, q);
  const ids = (target.getAttribute("aria-describedby") || "").split(/\s+/).filter((id) => id && id !== p.id);
  if (ids.length) target.setAttribute("aria-describedby", ids.join(" "));
  else target.removeAttribute("aria-describedby");
  controls(page, q).forEach((c) => { c.removeAttribute("aria-invalid"); });
}

// showFieldErrors shows the errors of a 400 answer on their questions; it returns
// the first question (in form order) that has one, or null.
export function showFieldErrors(page, res) {
  const items = {};
  ((res.body && res.body.fields) || []).forEach((f) => {
    const m = /^answers\.(\d+)$/.exec(f.field || "");
    if (m && !(m[1] in items)) items[m[1]] = f;
  });
  let first = null;
  page.questions.forEach((q) => {
    if (!(String(q.id) in items)) return;
    showError(page, q, fieldSentence(items[q.id]));
    if (first === null) first = q;
  });
  return first;
}
