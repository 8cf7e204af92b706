// Forma form page: progressive enhancement of the server-rendered form.
//
// Without this script the page is a plain HTML form that posts every question at
// once (multi-step forms too) and the server answers with errors or a thank-you
// page. With it:
//   - questions appear and disappear as the respondent answers, by the same logic
//     engine as the server (FormaLogic from logic.js); hidden questions are
//     disabled so that they do not post;
//   - an optional slider or rating can be left (or made) unanswered;
//   - a multi-step form shows one question at a time with Back / Next and a
//     progress indicator, applies skips and end_form, saves each answer through the
//     session operations and resumes after a reload (session id in localStorage).
// The server stays authoritative: it validates every answer again.
(function () {
  "use strict";

  var root = document.documentElement;
  root.classList.add("js");

  function ready(fn) {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", fn);
    } else {
      fn();
    }
  }

  ready(function () {
    var summary = document.getElementById("error-summary");
    if (summary) summary.focus();
    var form = document.getElementById("forma-form");
    if (!form) return;
    try {
      setup(form);
    } catch (err) {
      // Fall back to the plain form rather than leave a half-enhanced page.
      root.classList.remove("js");
      if (window.console) console.error(err);
    }
  });

  function toArray(list) { return Array.prototype.slice.call(list); }

  // sentence turns a server message meant to follow a field name ("is required",
  // "must be a valid email address") into a sentence, as the server's pages do.
  function sentence(msg) {
    msg = String(msg || "").replace(/^file: /, "");
    if (msg === "is required") return "Please answer this question.";
    if (/^(is|must|names) /.test(msg)) return "This answer " + msg + ".";
    if (!msg) return "This answer is not valid.";
    return msg.charAt(0).toUpperCase() + msg.slice(1);
  }

  function store() {
    try {
      var k = "__forma";
      window.localStorage.setItem(k, k);
      window.localStorage.removeItem(k);
      return window.localStorage;
    } catch (e) {
      return null;
    }
  }

  function setup(form) {
    var def = JSON.parse(form.getAttribute("data-definition"));
    var share = form.getAttribute("data-share");
    var questions = def.questions.slice().sort(function (a, b) { return a.order - b.order; });
    var byId = {};
    var blocks = {};
    questions.forEach(function (q) {
      byId[q.id] = q;
      blocks[q.id] = document.getElementById("question-" + q.id);
    });
    questions = questions.filter(function (q) { return blocks[q.id]; });

    var stepping = form.classList.contains("multi-step") && !form.hasAttribute("data-has-errors") &&
      typeof window.fetch === "function";
    var card = document.getElementById("forma-card");
    var thanks = document.getElementById("forma-thanks");
    var progress = document.getElementById("forma-progress");
    var stepLabel = document.getElementById("forma-step");
    var bar = document.getElementById("forma-bar");
    var back = document.getElementById("forma-back");
    var next = document.getElementById("forma-next");
    var status = document.getElementById("forma-status");
    var storage = store();
    var sessionKey = "forma:" + share + ":session";
    var filesKey = "forma:" + share + ":files";
    var visible = {};
    var current = null;
    var busy = false;
    var sliders = {};

    // ---- reading and writing answers ------------------------------------------

    function control(q) { return document.getElementById("q_" + q.id); }

    function controls(q) {
      return toArray(blocks[q.id].querySelectorAll("input, select, textarea"));
    }

    function checkedInputs(q) {
      return toArray(blocks[q.id].querySelectorAll("input:checked"));
    }

    // answer is the respondent's answer in its JSON shape, or null.
    function answer(q) {
      var el, s, n, chosen;
      switch (q.type) {
        case "multi_select":
          chosen = checkedInputs(q).map(function (i) { return i.value; });
          return chosen.length ? chosen : null;
        case "rating":
          chosen = checkedInputs(q)[0];
          return chosen ? Number(chosen.value) : null;
        case "yes_no":
          chosen = checkedInputs(q)[0];
          return chosen ? chosen.value === "true" : null;
        case "file_upload":
          return blocks[q.id].getAttribute("data-upload") || null;
        case "slider":
          el = control(q);
          if (sliders[q.id] && !sliders[q.id].answered) return null;
          return Number(el.value);
        case "number":
        case "currency":
          s = control(q).value.trim();
          if (s === "") return null;
          n = Number(s);
          return isFinite(n) ? n : s;
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

    // logicAnswer is what the logic engine sees: a file by its name.
    function logicAnswer(q) {
      if (q.type !== "file_upload") return answer(q);
      var input = control(q);
      if (input && input.files && input.files.length) return { name: input.files[0].name };
      var name = blocks[q.id].getAttribute("data-file-name");
      return name ? { name: name } : null;
    }

    function setAnswer(q, v) {
      var el = control(q);
      var values;
      switch (q.type) {
        case "multi_select":
        case "rating":
        case "yes_no":
          values = (Array.isArray(v) ? v : [v]).map(String);
          controls(q).forEach(function (i) {
            if (i.type === "checkbox" || i.type === "radio") i.checked = values.indexOf(i.value) >= 0;
          });
          break;
        case "file_upload":
          showUploaded(q, String(v), fileNames()[v] || "a file you uploaded earlier");
          break;
        case "slider":
          el.value = String(v);
          if (sliders[q.id]) sliders[q.id].set(true);
          break;
        default:
          el.value = String(v);
      }
      decorate(q);
    }

    // ---- question widgets ------------------------------------------------------

    function setupSlider(q) {
      var el = control(q);
      var out = document.getElementById("q_" + q.id + "-value");
      var wrap = el.closest(".slider");
      var clear = blocks[q.id].querySelector("[data-clear]");
      var name = el.getAttribute("name");
      var initial = el.value;
      var s = { answered: true };
      s.set = function (on) {
        s.answered = on;
        if (on) {
          el.setAttribute("name", name);
          el.removeAttribute("aria-valuetext");
          wrap.classList.remove("untouched");
          out.textContent = el.value;
        } else {
          // An untouched optional slider posts nothing.
          el.removeAttribute("name");
          el.setAttribute("aria-valuetext", "No answer yet");
          wrap.classList.add("untouched");
          out.textContent = "No answer";
        }
        if (clear) clear.hidden = !on;
      };
      sliders[q.id] = s;
      if (q.required) {
        out.textContent = el.value;
      } else {
        s.set(el.hasAttribute("data-answered"));
      }
      el.addEventListener("input", function () {
        if (!s.answered) s.set(true);
        out.textContent = el.value;
      });
      if (clear) {
        clear.addEventListener("click", function () {
          el.value = initial;
          s.set(false);
          changed(q);
          el.focus();
        });
      }
    }

    function setupChoiceClear(q) {
      var clear = blocks[q.id].querySelector("[data-clear]");
      if (!clear) return;
      clear.addEventListener("click", function () {
        controls(q).forEach(function (i) { i.checked = false; });
        changed(q);
        var first = controls(q)[0];
        if (first) first.focus();
      });
    }

    // decorate updates what depends on a question's answer: clear buttons, the
    // rating text.
    function decorate(q) {
      var b = blocks[q.id];
      if (q.type === "rating" || q.type === "yes_no") {
        var clear = b.querySelector("[data-clear]");
        var has = answer(q) !== null;
        if (clear) clear.hidden = !has;
        var text = b.querySelector(".rating-text");
        if (text) text.textContent = has ? answer(q) + " of 5" : "";
      }
    }

    function showUploaded(q, id, name) {
      var b = blocks[q.id];
      b.setAttribute("data-upload", id);
      b.setAttribute("data-file-name", name);
      var p = b.querySelector(".file-current");
      if (!p) {
        p = document.createElement("p");
        p.className = "file-current";
        var input = control(q);
        input.parentNode.insertBefore(p, input);
      }
      p.textContent = "";
      p.appendChild(document.createTextNode("Uploaded: "));
      var strong = document.createElement("strong");
      strong.className = "file-name";
      strong.textContent = name;
      p.appendChild(strong);
      p.appendChild(document.createTextNode(". Choose another file to replace it."));
      var input2 = control(q);
      if (input2) input2.removeAttribute("required");
    }

    // ---- errors -----------------------------------------------------------------

    function describedTarget(q) {
      return blocks[q.id].querySelector("fieldset") || control(q);
    }

    function showError(q, msg) {
      var p = document.getElementById("q_" + q.id + "-error");
      p.querySelector(".error-text").textContent = msg;
      p.hidden = false;
      blocks[q.id].classList.add("has-error");
      var target = describedTarget(q);
      var ids = (target.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
      if (ids.indexOf(p.id) < 0) ids.push(p.id);
      target.setAttribute("aria-describedby", ids.join(" "));
      controls(q).forEach(function (c) { if (c.type !== "hidden") c.setAttribute("aria-invalid", "true"); });
    }

    function clearError(q) {
      var p = document.getElementById("q_" + q.id + "-error");
      if (!p || p.hidden) return;
      p.hidden = true;
      p.querySelector(".error-text").textContent = "";
      blocks[q.id].classList.remove("has-error");
      var target = describedTarget(q);
      var ids = (target.getAttribute("aria-describedby") || "").split(/\s+/).filter(function (id) {
        return id && id !== p.id;
      });
      if (ids.length) target.setAttribute("aria-describedby", ids.join(" "));
      else target.removeAttribute("aria-describedby");
      controls(q).forEach(function (c) { c.removeAttribute("aria-invalid"); });
    }

    function say(msg, isError) {
      status.textContent = msg || "";
      status.classList.toggle("error", !!isError);
    }

    // ---- logic ------------------------------------------------------------------

    function evaluate() {
      var out = {};
      if (!window.FormaLogic) {
        questions.forEach(function (q) { out[q.id] = true; });
        return out;
      }
      var answers = {};
      questions.forEach(function (q) {
        var a = logicAnswer(q);
        if (a !== null) answers[String(q.id)] = a;
      });
      return window.FormaLogic.evaluate(def.questions, answers).visible;
    }

    function refresh() {
      visible = evaluate();
      questions.forEach(function (q) {
        var on = visible[q.id] !== false;
        var b = blocks[q.id];
        b.classList.remove("logic-hidden");
        controls(q).forEach(function (c) { c.disabled = !on; });
        if (!stepping) b.hidden = !on;
      });
      if (stepping) updateStep();
    }

    function changed(q) {
      if (q) {
        decorate(q);
        if (stepping) clearError(q);
      }
      refresh();
    }

    function questionOf(el) {
      var b = el.closest ? el.closest(".q") : null;
      return b ? byId[b.getAttribute("data-qid")] : null;
    }

    questions.forEach(function (q) {
      if (q.type === "slider") setupSlider(q);
      if (q.type === "rating" || q.type === "yes_no") setupChoiceClear(q);
      var hiddenUpload = blocks[q.id].querySelector("input[data-upload-id]");
      if (hiddenUpload) {
        var name = blocks[q.id].querySelector(".file-name");
        blocks[q.id].setAttribute("data-upload", hiddenUpload.value);
        blocks[q.id].setAttribute("data-file-name", name ? name.textContent : "file");
      }
      decorate(q);
    });
    form.addEventListener("input", function (e) { changed(questionOf(e.target)); });
    form.addEventListener("change", function (e) { changed(questionOf(e.target)); });
    refresh();

    if (!stepping) return;

    // ---- multi-step ---------------------------------------------------------------

    function visibleQuestions() {
      return questions.filter(function (q) { return visible[q.id] !== false; });
    }

    function position(id) {
      for (var i = 0; i < questions.length; i++) if (questions[i].id === id) return i;
      return -1;
    }

    function nextVisible(id) {
      for (var i = position(id) + 1; i < questions.length; i++) {
        if (visible[questions[i].id] !== false) return questions[i].id;
      }
      return null;
    }

    function previousVisible(id) {
      for (var i = position(id) - 1; i >= 0; i--) {
        if (visible[questions[i].id] !== false) return questions[i].id;
      }
      return null;
    }

    function updateStep() {
      if (current === null) {
        next.textContent = "Submit";
        return;
      }
      var shown = visibleQuestions();
      var before = 0;
      for (var i = 0; i < shown.length; i++) if (position(shown[i].id) < position(current)) before++;
      var total = shown.length + (visible[current] === false ? 1 : 0);
      var label = "Step " + (before + 1) + " of " + total;
      if (stepLabel.textContent !== label) stepLabel.textContent = label;
      bar.max = total;
      bar.value = before + 1;
      back.hidden = previousVisible(current) === null;
      next.textContent = nextVisible(current) === null ? "Submit" : "Next";
    }

    function focusQuestion(id) {
      var q = byId[id];
      var target = checkedInputs(q)[0] || controls(q).filter(function (c) { return c.type !== "hidden"; })[0];
      if (target) target.focus();
    }

    function showStep(id, focus) {
      current = id;
      questions.forEach(function (q) { blocks[q.id].hidden = q.id !== id; });
      updateStep();
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

    function api(method, path, body) {
      var init = { method: method, headers: {}, credentials: "omit" };
      if (body instanceof FormData) {
        init.body = body;
      } else if (body !== undefined) {
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
      return fetch("/f/" + encodeURIComponent(share) + path, init).then(function (res) {
        return res.text().then(function (text) {
          var data = null;
          try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
          return { ok: res.ok, status: res.status, body: data };
        });
      }, function () {
        return { ok: false, status: 0, body: null };
      });
    }

    function failure(res, what) {
      if (res.status === 0) return what + " Check your connection and try again.";
      return what + " " + ((res.body && res.body.message) || "Please try again.");
    }

    var sessionInMemory = null;

    function sessionID() {
      return sessionInMemory || (storage ? storage.getItem(sessionKey) : null);
    }

    function forget() {
      sessionInMemory = null;
      if (!storage) return;
      storage.removeItem(sessionKey);
      storage.removeItem(filesKey);
    }

    function fileNames() {
      try {
        return JSON.parse((storage && storage.getItem(filesKey)) || "{}") || {};
      } catch (e) {
        return {};
      }
    }

    function rememberFile(id, name) {
      if (!storage) return;
      var names = fileNames();
      names[id] = name;
      storage.setItem(filesKey, JSON.stringify(names));
    }

    var pendingSession = null;

    function ensureSession() {
      var id = sessionID();
      if (id) return Promise.resolve(id);
      if (pendingSession) return pendingSession;
      pendingSession = api("POST", "/sessions").then(function (res) {
        pendingSession = null;
        if (!res.ok || !res.body || !res.body.id) {
          say(failure(res, "Your progress could not be saved."), true);
          return null;
        }
        sessionInMemory = res.body.id;
        if (storage) storage.setItem(sessionKey, res.body.id);
        return res.body.id;
      });
      return pendingSession;
    }

    // answersUpTo collects the answers of the visible questions up to id (all when
    // id is null), for a session that has to be started again.
    function answersUpTo(id) {
      var out = {};
      var limit = id === null ? questions.length : position(id) + 1;
      questions.slice(0, limit).forEach(function (q) {
        if (visible[q.id] === false) return;
        var a = answer(q);
        if (a !== null) out[q.id] = a;
      });
      return out;
    }

    // fieldErrors shows the errors of a 400 answer on their questions; it returns
    // the first question (in form order) that has one, or null.
    function fieldErrors(res) {
      var messages = {};
      ((res.body && res.body.fields) || []).forEach(function (f) {
        var m = /^answers\.(\d+)$/.exec(f.field || "");
        if (m && !(m[1] in messages)) messages[m[1]] = f.message;
      });
      var first = null;
      questions.forEach(function (q) {
        if (!(String(q.id) in messages)) return;
        showError(q, sentence(messages[q.id]));
        if (first === null) first = q;
      });
      return first;
    }

    // save sends answers to the session; a session that is gone (expired, or
    // completed in another tab) is started again with every answer so far.
    function save(answers, retried) {
      return ensureSession().then(function (sid) {
        if (!sid) return false;
        return api("PATCH", "/sessions/" + encodeURIComponent(sid), { answers: answers }).then(function (res) {
          if (res.ok) return true;
          if ((res.status === 404 || res.status === 409) && !retried) {
            forget();
            var all = answersUpTo(current);
            Object.keys(answers).forEach(function (k) { all[k] = answers[k]; });
            return save(all, true);
          }
          if (res.status === 400 && fieldErrors(res)) return false;
          say(failure(res, "Your answer could not be saved."), true);
          return false;
        });
      });
    }

    function upload(q) {
      var input = control(q);
      if (!input.files || !input.files.length) return Promise.resolve(true);
      var file = input.files[0];
      var data = new FormData();
      data.append("file", file, file.name);
      return api("POST", "/uploads", data).then(function (res) {
        if (res.ok && res.body && res.body.id) {
          rememberFile(res.body.id, res.body.name);
          showUploaded(q, res.body.id, res.body.name);
          input.value = "";
          return true;
        }
        if (res.status === 400 || res.status === 413) {
          var fields = (res.body && res.body.fields) || [];
          showError(q, sentence(fields.length ? fields[0].message : res.body && res.body.message));
          return false;
        }
        say(failure(res, "The file could not be uploaded."), true);
        return false;
      });
    }

    // check finds what the browser can tell before the server is asked.
    function check(q) {
      var el = control(q);
      if (el && el.validity && el.validity.badInput) return "This answer must be a number.";
      if (q.required && answer(q) === null && !(q.type === "file_upload" && el && el.files && el.files.length)) {
        return "Please answer this question.";
      }
      return "";
    }

    function showThanks() {
      forget();
      card.hidden = true;
      progress.hidden = true;
      thanks.hidden = false;
      document.title = "Thank you: " + document.title.replace(/^Error: /, "");
      window.scrollTo(0, 0);
      var heading = thanks.querySelector("h1");
      if (heading) heading.focus();
    }

    function complete(retried) {
      var sid = sessionID();
      return api("POST", "/sessions/" + encodeURIComponent(sid) + "/complete").then(function (res) {
        if (res.ok || res.status === 409) {
          showThanks();
          return;
        }
        if (res.status === 404 && !retried) {
          forget();
          return save(answersUpTo(null), true).then(function (ok) { if (ok) return complete(true); });
        }
        if (res.status === 400) {
          var first = fieldErrors(res);
          if (first) {
            showStep(first.id, true);
            return;
          }
        }
        say(failure(res, "Your response could not be submitted."), true);
      });
    }

    function advance() {
      say("");
      if (current === null) return complete(false);
      var q = byId[current];
      clearError(q);
      var problem = check(q);
      if (problem) {
        showError(q, problem);
        focusQuestion(q.id);
        return Promise.resolve();
      }
      var step = q.type === "file_upload" ? upload(q) : Promise.resolve(true);
      return step.then(function (ok) {
        if (!ok) return false;
        var answers = {};
        answers[q.id] = answer(q);
        return save(answers, false);
      }).then(function (ok) {
        if (!ok) {
          focusQuestion(q.id);
          return;
        }
        refresh();
        var to = nextVisible(q.id);
        if (to === null) return complete(false);
        showStep(to, true);
      });
    }

    form.addEventListener("submit", function (e) {
      e.preventDefault();
      if (busy) return;
      setBusy(true);
      advance().then(function () { setBusy(false); }, function (err) {
        setBusy(false);
        say("Something went wrong. Please try again.", true);
        if (window.console) console.error(err);
      });
    });

    back.addEventListener("click", function () {
      if (busy || current === null) return;
      say("");
      var to = previousVisible(current);
      if (to !== null) showStep(to, true);
    });

    function resume() {
      var sid = sessionID();
      if (!sid) return Promise.resolve(false);
      return api("GET", "/sessions/" + encodeURIComponent(sid)).then(function (res) {
        if (!res.ok || !res.body || res.body.completed) {
          if (res.status !== 0) forget();
          return false;
        }
        var saved = res.body.answers || {};
        questions.forEach(function (q) {
          if (saved[q.id] !== undefined && saved[q.id] !== null) setAnswer(q, saved[q.id]);
        });
        refresh();
        return true;
      });
    }

    function firstStep(resumed) {
      var shown = visibleQuestions();
      if (!shown.length) return null;
      if (resumed) {
        for (var i = 0; i < shown.length; i++) if (answer(shown[i]) === null) return shown[i].id;
        return shown[shown.length - 1].id;
      }
      return shown[0].id;
    }

    form.classList.add("stepping");
    progress.hidden = false;
    back.hidden = true;
    resume().then(function (resumed) {
      showStep(firstStep(resumed), false);
      form.classList.add("ready");
    }, function () {
      showStep(firstStep(false), false);
      form.classList.add("ready");
    });
  }
})();
