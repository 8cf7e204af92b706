// Forma builder, the editor page's own script (loaded only there). Everything it
// does has a way without it.
//
// Drag and drop: each question gets a handle (hidden without this script).
// Dragging it over another question marks where it would go: native HTML5 drag
// events with a mouse, pointer events with touch or a pen (which have no native
// drag on most phones). Dropping posts the new position to the endpoint the
// Move up and Move down buttons post to (POST /forms/{id}/questions/{qid}/move
// with to=<1-based position>; a same-origin fetch, which the server's
// cross-origin protection lets through) and reloads the editor. The outcome is
// said in a live region, after the reload too (sessionStorage carries it across).
// The handle is not focusable: keyboard users have the Move buttons.
//
// The rule editor: an action's question and score, and a condition's value,
// show only for the actions and comparisons that use them. Without this script
// all of them show, and the server ignores the ones not used.
"use strict";

(() => {
  const list = document.querySelector("ol[data-reorder]");
  const status = document.getElementById("reorder-status");
  const announceKey = "forma:builder:announce";
  let dragged = null; // the question being dragged
  let mark = null; // where it would go: {li, after}

  function say(text) {
    status.textContent = text;
  }

  // sayKept says what the page before the reload left to say.
  function sayKept() {
    let text = null;
    try {
      text = sessionStorage.getItem(announceKey);
      sessionStorage.removeItem(announceKey);
    } catch {
      return; // no storage: the "Moved." notice at the question says it
    }
    // After a pause, so that screen readers notice the change of a live region
    // that was already on the page when it loaded.
    if (text) setTimeout(() => say(text), 300);
  }

  function keep(text) {
    try {
      sessionStorage.setItem(announceKey, text);
    } catch {
      // no storage: the "Moved." notice at the question says it
    }
  }

  function rows() {
    return Array.from(list.children).filter((li) => li.hasAttribute("data-move"));
  }

  // rowAt is the question whose block holds el, or null.
  function rowAt(el) {
    const li = el && el.closest ? el.closest("li[data-move]") : null;
    return li && li.parentElement === list ? li : null;
  }

  // place marks where the dragged question would go over li, at height y: before
  // li or after it. Between questions the last mark stays.
  function place(li, y) {
    if (!li) return;
    clear();
    if (li === dragged) return;
    const box = li.getBoundingClientRect();
    mark = { li, after: y > box.top + box.height / 2 };
    li.classList.add(mark.after ? "drop-after" : "drop-before");
  }

  function clear() {
    if (mark) mark.li.classList.remove("drop-before", "drop-after");
    mark = null;
  }

  // position is the 1-based position the dragged question would take; 0 when
  // it would stay where it is.
  function position() {
    if (!dragged || !mark) return 0;
    const all = rows();
    const from = all.indexOf(dragged);
    let to = all.indexOf(mark.li) + (mark.after ? 1 : 0);
    if (from < to) to -= 1;
    return to === from ? 0 : to + 1;
  }

  function end() {
    clear();
    if (dragged) dragged.classList.remove("dragging");
    dragged = null;
  }

  async function drop() {
    const li = dragged;
    const to = position();
    end();
    if (!li || !to) return;
    const from = li.getAttribute("data-order");
    say("Moving question " + from + " to position " + to + "…");
    let res = null;
    try {
      res = await fetch(li.getAttribute("data-move"), {
        method: "POST", credentials: "same-origin", body: new URLSearchParams({ to: String(to) }),
      });
    } catch {
      res = null;
    }
    if (!res || !res.ok) {
      say("Question " + from + " could not be moved. Reload the page and try again, or use Move up and Move down.");
      return;
    }
    keep("Question " + from + " moved to position " + to + ".");
    reload(res.url, li.id);
  }

  // reload shows url (the editor the move answered with) at the moved question.
  function reload(url, id) {
    const next = new URL(url, location.href);
    next.hash = id;
    if (next.pathname + next.search === location.pathname + location.search) {
      location.hash = id;
      location.reload();
    } else {
      location.assign(next.href);
    }
  }

  // touchDrag follows a touch or pen drag of li's handle with pointer events.
  function touchDrag(e, li, handle) {
    if (e.pointerType === "mouse" || e.button !== 0) return;
    e.preventDefault();
    dragged = li;
    li.classList.add("dragging");
    handle.setPointerCapture(e.pointerId);
    const follow = (ev) => place(rowAt(document.elementFromPoint(ev.clientX, ev.clientY)), ev.clientY);
    const stop = (ev) => {
      handle.removeEventListener("pointermove", follow);
      handle.removeEventListener("pointerup", stop);
      handle.removeEventListener("pointercancel", stop);
      if (ev.type === "pointerup") drop();
      else end();
    };
    handle.addEventListener("pointermove", follow);
    handle.addEventListener("pointerup", stop);
    handle.addEventListener("pointercancel", stop);
  }

  function setUpDragging() {
    rows().forEach((li) => {
      const handle = li.querySelector("[data-drag-handle]");
      handle.hidden = false;
      handle.draggable = true; // the handle only: text in the fields stays selectable
      handle.addEventListener("dragstart", (e) => {
        dragged = li;
        li.classList.add("dragging");
        e.dataTransfer.effectAllowed = "move";
        e.dataTransfer.setData("text/plain", li.getAttribute("data-order")); // Firefox drags only with data
        e.dataTransfer.setDragImage(li, 24, 24);
      });
      handle.addEventListener("dragend", end);
      handle.addEventListener("pointerdown", (e) => touchDrag(e, li, handle));
    });
    list.addEventListener("dragover", (e) => {
      if (!dragged) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "move";
      place(rowAt(e.target), e.clientY);
    });
    list.addEventListener("drop", (e) => {
      if (!dragged) return;
      e.preventDefault();
      drop();
    });
    document.getElementById("drag-hint").hidden = false;
    sayKept();
  }

  // showUsed shows the fields of each row of the rule editor that its select
  // (found by selector) uses, as used(field, value) says, and keeps doing so.
  function showUsed(rowSelector, selectSelector, used) {
    document.querySelectorAll(rowSelector).forEach((row) => {
      const select = row.querySelector(selectSelector);
      const sync = () => row.querySelectorAll("[data-action-uses], [data-needs-value]").forEach((field) => {
        field.hidden = !used(field, select.value);
      });
      select.addEventListener("change", sync);
      sync();
    });
  }

  if (list && status) setUpDragging();
  showUsed("[data-action]", "select[name$='.type']",
    (field, type) => field.getAttribute("data-action-uses").split(" ").includes(type));
  showUsed("[data-condition]", "select[name$='.op']",
    (field, op) => op !== "is_empty" && op !== "is_not_empty");
})();
