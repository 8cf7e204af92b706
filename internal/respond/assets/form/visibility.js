// Visibility: questions appear and disappear as the respondent answers, by the same
// logic engine as the server (FormaLogic, from the classic script logic.js). The
// inputs of a hidden question are disabled, so that they do not post.
//
// The public definition leaves out the score rules (a quiz's answer key), so a
// form whose conditions compare the score is evaluated by the server instead
// (POST /f/{shareUrl}/evaluate): the page keeps what it shows until the server's
// answer comes, starting from what the server rendered.

import { api } from "./api.js";
import { controls, hiddenBody } from "./page.js";
import { answer, logicAnswer } from "./questions.js";

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
  return window.FormaLogic.evaluate(page.def.questions, answers, page.hiddenValues).visible;
}

// comparesScore reports whether some condition of the form compares the score.
function comparesScore(def) {
  return def.questions.some((q) => {
    const rule = q.conditionalLogic && q.conditionalLogic.advanced;
    return !!rule && (rule.conditionGroups || []).some((g) =>
      (g.conditions || []).some((c) => c.valueType === "score"));
  });
}

// serverDecides reports whether page's visibility comes from the server; the
// first time, it takes what the server rendered as the visibility so far.
function serverDecides(page) {
  if (page.scored === undefined) {
    // The preview's definition keeps the score rules: the page computes the score.
    page.scored = !page.preview && comparesScore(page.def);
    if (page.scored) {
      page.questions.forEach((q) => { page.visible[q.id] = !page.blocks[q.id].classList.contains("logic-hidden"); });
    }
  }
  return page.scored;
}

// ask sends the answers to the server; the latest answer to come back is applied,
// then page.onVisible is called.
function ask(page) {
  const answers = {};
  page.questions.forEach((q) => {
    const a = answer(page, q);
    if (a !== null) answers[q.id] = a;
  });
  const n = (page.asked = (page.asked || 0) + 1);
  page.evaluating = api(page.share, "POST", "/evaluate", Object.assign({ answers }, hiddenBody(page))).then((res) => {
    if (n !== page.asked || !res.ok || !res.body || !Array.isArray(res.body.visible)) return;
    const shown = {};
    res.body.visible.forEach((id) => { shown[id] = true; });
    page.questions.forEach((q) => { page.visible[q.id] = !!shown[q.id]; });
    apply(page);
    if (page.onVisible) page.onVisible();
  });
}

function apply(page) {
  page.questions.forEach((q) => {
    const on = page.visible[q.id] !== false;
    const b = page.blocks[q.id];
    b.classList.remove("logic-hidden");
    controls(page, q).forEach((c) => { c.disabled = !on; });
    if (!page.stepping) b.hidden = !on;
  });
}

// refresh evaluates the logic on the current answers into page.visible and
// applies it; a multi-step form shows its questions one at a time itself
// (steps.js).
export function refresh(page) {
  if (serverDecides(page)) {
    ask(page);
  } else {
    page.visible = evaluate(page);
  }
  apply(page);
}

// settled refreshes and resolves once page.visible holds the answer to the
// current answers (at once, unless the server decides).
export function settled(page) {
  refresh(page);
  return page.scored ? page.evaluating : Promise.resolve();
}
