// The page: the form's definition, its questions in form order and the elements
// that show them. Every other module works on the object createPage returns.

export function toArray(list) {
  return Array.prototype.slice.call(list);
}

// createPage reads the form element. The questions come in the order the server
// rendered their blocks (form order), so the script never sorts them itself; the
// logic engine (logic.js) orders what it evaluates on its own.
export function createPage(form) {
  const def = JSON.parse(form.getAttribute("data-definition"));
  const byId = {};
  def.questions.forEach((q) => { byId[q.id] = q; });
  const blocks = {};
  const questions = [];
  toArray(form.querySelectorAll(".q[data-qid]")).forEach((block) => {
    const q = byId[block.getAttribute("data-qid")];
    if (!q) return;
    blocks[q.id] = block;
    questions.push(q);
  });
  const status = document.getElementById("forma-status");
  return {
    form,
    def,
    // hiddenValues holds the values of the form's hidden fields that the page's
    // address carried, from the inputs the server put in the form.
    hiddenValues: readHiddenValues(form),
    share: form.getAttribute("data-share"),
    // preview: the owner's preview, which never calls the server.
    preview: form.hasAttribute("data-preview"),
    questions,
    byId,
    blocks,
    // A multi-step form goes one question at a time, unless the server sent it
    // back with errors (then every question is on the page, as posted).
    stepping: form.classList.contains("multi-step") && !form.hasAttribute("data-has-errors") &&
      typeof window.fetch === "function",
    // visible maps question ids to false when the logic hides them.
    visible: {},
    // sliders holds the state of each slider widget (questions.js).
    sliders: {},
    // say shows a form-level message in the status line.
    say(msg, isError) {
      status.textContent = msg || "";
      status.classList.toggle("error", !!isError);
    },
  };
}

// readHiddenValues reads the hidden fields' values from their inputs, by name.
function readHiddenValues(form) {
  const out = {};
  toArray(form.querySelectorAll("input[data-hidden-field]")).forEach((input) => {
    out[input.getAttribute("data-hidden-field")] = input.value;
  });
  return out;
}

// hiddenBody is a JSON body holding the page's hidden values, or undefined
// (no body) when it has none.
export function hiddenBody(page) {
  return Object.keys(page.hiddenValues).length ? { hidden: page.hiddenValues } : undefined;
}

// control is a question's input (or the first of its group).
export function control(q) {
  return document.getElementById("q_" + q.id);
}

export function controls(page, q) {
  return toArray(page.blocks[q.id].querySelectorAll("input, select, textarea"));
}

export function checkedInputs(page, q) {
  return toArray(page.blocks[q.id].querySelectorAll("input:checked"));
}

// questionOf is the question whose block holds el, or null.
export function questionOf(page, el) {
  const block = el.closest ? el.closest(".q") : null;
  return block ? page.byId[block.getAttribute("data-qid")] : null;
}
