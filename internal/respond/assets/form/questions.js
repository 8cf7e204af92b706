// Questions: reading and writing the respondent's answers in their JSON shape, the
// widgets that need a script (an optional slider or rating can be left, or made,
// unanswered) and the checks the browser can make before the server is asked.

import { sentence } from "./messages.js";
import { checkedInputs, control, controls } from "./page.js";
import { restoreUploaded, showUploaded } from "./uploads.js";
import { word } from "./words.js";

// answer is the respondent's answer to q in its JSON shape, or null.
export function answer(page, q) {
  let s, chosen;
  switch (q.type) {
    case "multi_select":
      chosen = checkedInputs(page, q).map((i) => i.value);
      return chosen.length ? chosen : null;
    case "rating":
      chosen = checkedInputs(page, q)[0];
      return chosen ? Number(chosen.value) : null;
    case "yes_no":
      chosen = checkedInputs(page, q)[0];
      return chosen ? chosen.value === "true" : null;
    case "file_upload":
      return page.blocks[q.id].getAttribute("data-upload") || null;
    case "slider":
      if (page.sliders[q.id] && !page.sliders[q.id].answered) return null;
      return Number(control(q).value);
    case "number":
    case "currency": {
      s = control(q).value.trim();
      if (s === "") return null;
      const n = Number(s);
      return isFinite(n) ? n : s;
    }
    case "text":
    case "textarea":
    case "select":
      s = control(q).value;
      return s.trim() === "" ? null : s;
    default:
      s = control(q).value.trim();
      return s === "" ? null : s;
  }
}

// logicAnswer is what the logic engine sees: a file by its name, as soon as it is
// chosen.
export function logicAnswer(page, q) {
  if (q.type !== "file_upload") return answer(page, q);
  const input = control(q);
  if (input && input.files && input.files.length) return { name: input.files[0].name };
  const name = page.blocks[q.id].getAttribute("data-file-name");
  return name ? { name } : null;
}

// setAnswer puts a saved answer back; fileNames maps upload ids to file names.
export function setAnswer(page, q, v, fileNames) {
  const el = control(q);
  switch (q.type) {
    case "multi_select":
    case "rating":
    case "yes_no": {
      const values = (Array.isArray(v) ? v : [v]).map(String);
      controls(page, q).forEach((i) => {
        if (i.type === "checkbox" || i.type === "radio") i.checked = values.indexOf(i.value) >= 0;
      });
      break;
    }
    case "file_upload":
      showUploaded(page, q, String(v), fileNames[v] || word("earlierFile"));
      break;
    case "slider":
      el.value = String(v);
      if (page.sliders[q.id]) page.sliders[q.id].set(true);
      break;
    default:
      el.value = String(v);
  }
  decorate(page, q);
}

// problem is what the browser can tell is wrong with q's answer before the server
// is asked (the sentence), or "".
export function problem(page, q) {
  const el = control(q);
  if (el && el.validity && el.validity.badInput) return sentence("number");
  if (q.required && answer(page, q) === null && !(q.type === "file_upload" && el && el.files && el.files.length)) {
    return sentence("required");
  }
  return "";
}

// decorate updates what depends on a question's answer: clear buttons, the
// rating text.
export function decorate(page, q) {
  if (q.type !== "rating" && q.type !== "yes_no") return;
  const b = page.blocks[q.id];
  const has = answer(page, q) !== null;
  const clear = b.querySelector("[data-clear]");
  if (clear) clear.hidden = !has;
  const text = b.querySelector(".rating-text");
  if (text) text.textContent = has ? word("ratingLabel", { n: answer(page, q) }) : "";
}

function setupSlider(page, q, changed) {
  const el = control(q);
  const out = document.getElementById("q_" + q.id + "-value");
  const wrap = el.closest(".slider");
  const clear = page.blocks[q.id].querySelector("[data-clear]");
  const name = el.getAttribute("name");
  const initial = el.value;
  const s = { answered: true };
  s.set = (on) => {
    s.answered = on;
    if (on) {
      el.setAttribute("name", name);
      el.removeAttribute("aria-valuetext");
      wrap.classList.remove("untouched");
      out.textContent = el.value;
    } else {
      // An untouched optional slider posts nothing.
      el.removeAttribute("name");
      el.setAttribute("aria-valuetext", word("noAnswerYet"));
      wrap.classList.add("untouched");
      out.textContent = word("noAnswer");
    }
    if (clear) clear.hidden = !on;
  };
  page.sliders[q.id] = s;
  if (q.required) {
    out.textContent = el.value;
  } else {
    s.set(el.hasAttribute("data-answered"));
  }
  el.addEventListener("input", () => {
    if (!s.answered) s.set(true);
    out.textContent = el.value;
  });
  if (clear) {
    clear.addEventListener("click", () => {
      el.value = initial;
      s.set(false);
      changed(q);
      el.focus();
    });
  }
}

function setupChoiceClear(page, q, changed) {
  const clear = page.blocks[q.id].querySelector("[data-clear]");
  if (!clear) return;
  clear.addEventListener("click", () => {
    controls(page, q).forEach((i) => { i.checked = false; });
    changed(q);
    const first = controls(page, q)[0];
    if (first) first.focus();
  });
}

// setupQuestions readies every question's widgets; changed(q) is called when a
// widget changes an answer by itself.
export function setupQuestions(page, changed) {
  page.questions.forEach((q) => {
    if (q.type === "slider") setupSlider(page, q, changed);
    if (q.type === "rating" || q.type === "yes_no") setupChoiceClear(page, q, changed);
    if (q.type === "file_upload") restoreUploaded(page, q);
    decorate(page, q);
  });
}
