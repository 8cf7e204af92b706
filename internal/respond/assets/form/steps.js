// Steps: a multi-step form shows one question at a time with Back / Next and a
// progress indicator, applies the logic's skips and end_form as the respondent
// answers, checks each step before moving on, saves each answer in the session
// (state.js) and resumes after a reload. The server stays authoritative: it
// validates every answer again, and its problems show on their steps.

import { failure } from "./api.js";
import { clearError, showError, showFieldErrors } from "./messages.js";
import { checkedInputs, controls } from "./page.js";
import { answer, problem, setAnswer } from "./questions.js";
import { createSession } from "./state.js";
import { upload } from "./uploads.js";
import { settled } from "./visibility.js";
import { word } from "./words.js";

// startSteps turns page's form into steps; it returns {update}, to call after
// page.visible changed.
export function startSteps(page) {
  const { form, questions, byId, blocks } = page;
  const card = document.getElementById("forma-card");
  const thanks = document.getElementById("forma-thanks");
  const progress = document.getElementById("forma-progress");
  const stepLabel = document.getElementById("forma-step");
  const bar = document.getElementById("forma-bar");
  const back = document.getElementById("forma-back");
  const next = document.getElementById("forma-next");
  const session = createSession(page);
  let current = null;
  let busy = false;

  const shownNow = (q) => page.visible[q.id] !== false;

  function position(id) {
    return questions.findIndex((q) => q.id === id);
  }

  function nextVisible(id) {
    for (let i = position(id) + 1; i < questions.length; i++) if (shownNow(questions[i])) return questions[i].id;
    return null;
  }

  function previousVisible(id) {
    for (let i = position(id) - 1; i >= 0; i--) if (shownNow(questions[i])) return questions[i].id;
    return null;
  }

  // update shows where the respondent is: the step count counts the questions the
  // logic shows now, so a skip already counts when it is answered.
  function update() {
    if (current === null) {
      next.textContent = word("submit");
      return;
    }
    const shown = questions.filter(shownNow);
    const before = shown.filter((q) => position(q.id) < position(current)).length;
    const total = shown.length + (page.visible[current] === false ? 1 : 0);
    const label = word("stepOf", { n: before + 1, total });
    if (stepLabel.textContent !== label) stepLabel.textContent = label;
    bar.max = total;
    bar.value = before + 1;
    back.hidden = previousVisible(current) === null;
    next.textContent = nextVisible(current) === null ? word("submit") : word("next");
  }

  // reevaluate resolves once the logic decided on the current answers.
  function reevaluate() {
    return settled(page).then(update);
  }

  function focusQuestion(id) {
    const q = byId[id];
    const target = checkedInputs(page, q)[0] || controls(page, q).filter((c) => c.type !== "hidden")[0];
    if (target) target.focus();
  }

  function showStep(id, focus) {
    current = id;
    questions.forEach((q) => { blocks[q.id].hidden = q.id !== id; });
    update();
    if (focus && id !== null) {
      card.scrollIntoView({ block: "start" });
      focusQuestion(id);
    }
  }

  function setBusy(on) {
    busy = on;
    next.disabled = on;
    back.disabled = on;
    form.setAttribute("aria-busy", on ? "true" : "false");
  }

  // answersUpTo collects the answers of the visible questions up to id (all when
  // id is null), for a session that has to be started again.
  function answersUpTo(id) {
    const out = {};
    const limit = id === null ? questions.length : position(id) + 1;
    questions.slice(0, limit).forEach((q) => {
      if (!shownNow(q)) return;
      const a = answer(page, q);
      if (a !== null) out[q.id] = a;
    });
    return out;
  }

  // save sends answers to the session; a session that is gone (expired, or
  // completed in another tab) is started again with every answer so far.
  function save(answers, retried) {
    return session.save(answers).then((res) => {
      if (res === null) return false;
      if (res.ok) return true;
      if ((res.status === 404 || res.status === 409) && !retried) {
        session.forget();
        return save(Object.assign(answersUpTo(current), answers), true);
      }
      if (res.status === 400 && showFieldErrors(page, res)) return false;
      page.say(failure(res, word("answerNotSaved")), true);
      return false;
    });
  }

  // showThanks shows the thank-you screen; screen, when the server sent one, is
  // the form's own title and message with the answers piped in (set as text).
  function showThanks(screen) {
    session.forget();
    if (screen) {
      thanks.querySelector("h1").textContent = screen.title;
      const message = document.getElementById("thanks-message");
      message.textContent = screen.message;
      message.hidden = !screen.message;
    }
    card.hidden = true;
    progress.hidden = true;
    thanks.hidden = false;
    document.title = word("titleThanks", { title: page.def.title });
    window.scrollTo(0, 0);
    const heading = thanks.querySelector("h1");
    if (heading) heading.focus();
  }

  function complete(retried) {
    if (page.preview) {
      page.say(word("previewSaid"));
      return Promise.resolve();
    }
    return session.complete().then((res) => {
      if (res.ok && res.body && res.body.redirectUrl) {
        session.forget();
        window.location.assign(res.body.redirectUrl);
        return;
      }
      if (res.ok || res.status === 409) {
        showThanks(res.ok && res.body ? res.body.thankYou : null);
        return;
      }
      if (res.status === 404 && !retried) {
        session.forget();
        return save(answersUpTo(null), true).then((ok) => { if (ok) return complete(true); });
      }
      if (res.status === 400) {
        const first = showFieldErrors(page, res);
        if (first) {
          showStep(first.id, true);
          return;
        }
      }
      page.say(failure(res, word("notSubmitted")), true);
    });
  }

  function advance() {
    page.say("");
    if (current === null) return complete(false);
    const q = byId[current];
    clearError(page, q);
    const wrong = problem(page, q);
    if (wrong) {
      showError(page, q, wrong);
      focusQuestion(q.id);
      return Promise.resolve();
    }
    const uploaded = q.type === "file_upload" ? upload(page, q, session) : Promise.resolve(true);
    return uploaded.then((ok) => {
      if (!ok) return false;
      return save({ [q.id]: answer(page, q) }, false);
    }).then((ok) => {
      if (!ok) {
        focusQuestion(q.id);
        return;
      }
      return reevaluate().then(() => {
        const to = nextVisible(q.id);
        if (to === null) return complete(false);
        showStep(to, true);
      });
    });
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    advance().then(() => { setBusy(false); }, (err) => {
      setBusy(false);
      page.say(word("wentWrong"), true);
      if (window.console) console.error(err);
    });
  });

  back.addEventListener("click", () => {
    if (busy || current === null) return;
    page.say("");
    const to = previousVisible(current);
    if (to !== null) showStep(to, true);
  });

  // resume puts the answers of a saved session back; it resolves to whether there
  // was one.
  function resume() {
    return session.load().then((res) => {
      if (res === null) return false;
      if (!res.ok || !res.body) {
        if (res.status !== 0) session.forget();
        return false;
      }
      const saved = res.body.answers || {};
      const names = session.fileNames();
      questions.forEach((q) => {
        if (saved[q.id] !== undefined && saved[q.id] !== null) setAnswer(page, q, saved[q.id], names);
      });
      return reevaluate().then(() => true);
    });
  }

  // firstStep is the first question, or after a resume the first unanswered one.
  function firstStep(resumed) {
    const shown = questions.filter(shownNow);
    if (!shown.length) return null;
    if (resumed) {
      const open = shown.find((q) => answer(page, q) === null);
      return (open || shown[shown.length - 1]).id;
    }
    return shown[0].id;
  }

  form.classList.add("stepping");
  progress.hidden = false;
  back.hidden = true;
  const begin = (resumed) => {
    showStep(firstStep(resumed), false);
    form.classList.add("ready");
  };
  resume().then(begin, () => begin(false));
  return { update };
}
