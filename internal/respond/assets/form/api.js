// The respondent JSON operations under /f/{shareUrl}, as the page calls them.

import { word } from "./words.js";

// api calls an operation of the form share; it never rejects: a network failure
// is status 0. body is JSON, or FormData for an upload; headers are extra request
// headers (a session's resume token).
export function api(share, method, path, body, headers) {
  const init = { method, headers: Object.assign({}, headers), credentials: "omit" };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return fetch("/f/" + encodeURIComponent(share) + path, init).then((res) =>
    res.text().then((text) => {
      let data = null;
      try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
      return { ok: res.ok, status: res.status, body: data };
    }), () => ({ ok: false, status: 0, body: null }));
}

// failure says why an operation failed, after what did not happen.
// The server's own message is said only when it is in the page's language: a
// closed form's (its owner's, or the catalogue's default).
export function failure(res, what) {
  if (res.status === 0) return what + " " + word("checkConnection");
  if (res.status === 410 && res.body && res.body.message) return what + " " + res.body.message;
  if (res.status === 429) return what + " " + word("rateLimited");
  return what + " " + word("tryAgain");
}
