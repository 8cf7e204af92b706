// Visibility: questions appear and disappear as the respondent answers, by the same
// logic engine as the server (FormaLogic, from the classic script logic.js). The
// inputs of a hidden question are disabled, so that they do not post.

import { controls } from "./page.js";
import { logicAnswer } from "./questions.js";

function evaluate(page) {
  const out = {};
  if (!window.FormaLogic) {
    page.questions.forEach((q) => { out[q.id] = true; });
    return out;
  }
  const answers = {};
  page.questions.forEach((q) => {
    const a = logicAnswer(page, q);
    if (a !== null) answers[String(q.id)] = a;
  });
  return window.FormaLogic.evaluate(page.def.questions, answers).visible;
}

// refresh evaluates the logic on the current answers into page.visible and
// applies it; a multi-step form shows its questions one at a time itself
// (steps.js).
export function refresh(page) {
  page.visible = evaluate(page);
  page.questions.forEach((q) => {
    const on = page.visible[q.id] !== false;
    const b = page.blocks[q.id];
    b.classList.remove("logic-hidden");
    controls(page, q).forEach((c) => { c.disabled = !on; });
    if (!page.stepping) b.hidden = !on;
  });
}
