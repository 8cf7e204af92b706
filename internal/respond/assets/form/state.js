// State: where a multi-step respondent's progress lives. The answers are saved in
// a session on the server (the session operations under /f/{shareUrl}/sessions);
// the browser keeps only the session id, its resume token (the secret without
// which the server shows the session to nobody, sent as X-Resume-Token), and the
// names of uploaded files, in localStorage, so that a reload resumes where the
// respondent was. Without localStorage the session lasts as long as the page.

import { api, failure } from "./api.js";
import { hiddenBody } from "./page.js";
import { word } from "./words.js";

function localStore() {
  try {
    const k = "__forma";
    window.localStorage.setItem(k, k);
    window.localStorage.removeItem(k);
    return window.localStorage;
  } catch (e) {
    return null;
  }
}

// previewSession is the session of the owner's preview: every save "works" and
// keeps nothing, and there is nothing to resume. The preview never completes a
// session or uploads a file (steps.js, uploads.js), so that is all it needs.
function previewSession() {
  return {
    save: () => Promise.resolve({ ok: true, status: 200, body: null }),
    load: () => Promise.resolve(null),
  };
}

// createSession returns the progress of page's form: the session id, file names,
// and the session operations (each resolves to api's result).
export function createSession(page) {
  if (page.preview) return previewSession();
  const storage = localStore();
  const sessionKey = "forma:" + page.share + ":session";
  const tokenKey = "forma:" + page.share + ":resume";
  const filesKey = "forma:" + page.share + ":files";
  let inMemory = null;
  let pending = null;

  function id() {
    return inMemory ? inMemory.id : (storage ? storage.getItem(sessionKey) : null);
  }

  // call sends a session operation with the session's resume token.
  function call(method, suffix, body) {
    const token = inMemory ? inMemory.token : (storage ? storage.getItem(tokenKey) : null);
    return api(page.share, method, path(suffix), body, { "X-Resume-Token": token || "" });
  }

  function path(suffix) {
    return "/sessions/" + encodeURIComponent(id()) + suffix;
  }

  function fileNames() {
    try {
      return JSON.parse((storage && storage.getItem(filesKey)) || "{}") || {};
    } catch (e) {
      return {};
    }
  }

  // ensure resolves to the session id, starting a session when there is none;
  // null (said on the page) when none could be started.
  function ensure() {
    const sid = id();
    if (sid) return Promise.resolve(sid);
    if (pending) return pending;
    pending = api(page.share, "POST", "/sessions", hiddenBody(page)).then((res) => {
      pending = null;
      if (!res.ok || !res.body || !res.body.id || !res.body.resumeToken) {
        page.say(failure(res, word("progressNotSaved")), true);
        return null;
      }
      inMemory = { id: res.body.id, token: res.body.resumeToken };
      if (storage) {
        storage.setItem(sessionKey, res.body.id);
        storage.setItem(tokenKey, res.body.resumeToken);
      }
      return res.body.id;
    });
    return pending;
  }

  return {
    id,
    fileNames,
    // forget drops the session (completed, or gone on the server).
    forget() {
      inMemory = null;
      if (!storage) return;
      storage.removeItem(sessionKey);
      storage.removeItem(tokenKey);
      storage.removeItem(filesKey);
    },
    rememberFile(uploadID, name) {
      if (!storage) return;
      const names = fileNames();
      names[uploadID] = name;
      storage.setItem(filesKey, JSON.stringify(names));
    },
    // save merges answers into the session, started if need be; null when none
    // could be started.
    save(answers) {
      return ensure().then((sid) => (sid ? call("PATCH", "", { answers }) : null));
    },
    // load reads the saved session; null when there is none to resume.
    load() {
      return id() ? call("GET", "") : Promise.resolve(null);
    },
    // complete completes the session, with the page's hidden values again: a
    // session resumed from an earlier visit takes those of this address.
    complete() {
      return call("POST", "/complete", hiddenBody(page));
    },
  };
}
