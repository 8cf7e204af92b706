// Uploads: the file a file_upload question holds. The block of the question keeps
// the upload id (data-upload) and the file's name (data-file-name) once the file
// is on the server; a multi-step form uploads the chosen file when the respondent
// moves on.

import { api, failure } from "./api.js";
import { fieldSentence, showError } from "./messages.js";
import { control } from "./page.js";
import { word } from "./words.js";

// showUploaded shows that q's answer is the uploaded file id, named name.
export function showUploaded(page, q, id, name) {
  const b = page.blocks[q.id];
  b.setAttribute("data-upload", id);
  b.setAttribute("data-file-name", name);
  let p = b.querySelector(".file-current");
  if (!p) {
    p = document.createElement("p");
    p.className = "file-current";
    const input = control(q);
    input.parentNode.insertBefore(p, input);
  }
  p.textContent = "";
  p.appendChild(document.createTextNode(word("uploaded") + " "));
  const strong = document.createElement("strong");
  strong.className = "file-name";
  strong.textContent = name;
  p.appendChild(strong);
  p.appendChild(document.createTextNode(". Choose another file to replace it."));
  const again = control(q);
  if (again) again.removeAttribute("required");
}

// restoreUploaded takes up a file the server kept from an earlier, failed post
// (its id in a hidden input).
export function restoreUploaded(page, q) {
  const b = page.blocks[q.id];
  const hidden = b.querySelector("input[data-upload-id]");
  if (!hidden) return;
  const name = b.querySelector(".file-name");
  b.setAttribute("data-upload", hidden.value);
  b.setAttribute("data-file-name", name ? name.textContent : "file");
}

// upload sends the file chosen for q, if any; it resolves to whether q may move
// on. session remembers the file's name, for a reload. The owner's preview
// uploads nothing.
export function upload(page, q, session) {
  const input = control(q);
  if (page.preview || !input.files || !input.files.length) return Promise.resolve(true);
  const file = input.files[0];
  const data = new FormData();
  data.append("file", file, file.name);
  return api(page.share, "POST", "/uploads", data).then((res) => {
    if (res.ok && res.body && res.body.id) {
      session.rememberFile(res.body.id, res.body.name);
      showUploaded(page, q, res.body.id, res.body.name);
      input.value = "";
      return true;
    }
    const fields = (res.body && res.body.fields) || [];
    if ((res.status === 400 || res.status === 413) && fields.length) {
      showError(page, q, fieldSentence(fields[0]));
      return false;
    }
    page.say(failure(res, word("notUploaded")), true);
    return false;
  });
}
