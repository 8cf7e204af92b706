// State: where a multi-step respondent's progress lives. The answers are saved in
// a session on the server (the session operations under /f/{shareUrl}/sessions);
// the browser keeps only the session id, and the names of uploaded files, in
// localStorage, so that a reload resumes where the respondent was. Without
// localStorage the session lasts as long as the page.

import { api, failure } from "./api.js";

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

// createSession returns the progress of page's form: the session id, file names,
// and the session operations (each resolves to api's result).
export function createSession(page) {
  const storage = localStore();
  const sessionKey = "forma:" + page.share + ":session";
  const filesKey = "forma:" + page.share + ":files";
  let inMemory = null;
  let pending = null;

  function id() {
    return inMemory || (storage ? storage.getItem(sessionKey) : null);
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
    pending = api(page.share, "POST", "/sessions").then((res) => {
      pending = null;
      if (!res.ok || !res.body || !res.body.id) {
        page.say(failure(res, "Your progress could not be saved."), true);
        return null;
      }
      inMemory = res.body.id;
      if (storage) storage.setItem(sessionKey, res.body.id);
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
      return ensure().then((sid) => (sid ? api(page.share, "PATCH", path(""), { answers }) : null));
    },
    // load reads the saved session; null when there is none to resume.
    load() {
      return id() ? api(page.share, "GET", path("")) : Promise.resolve(null);
    },
    complete() {
      return api(page.share, "POST", path("/complete"));
    },
  };
}
