// The page's own words in the form's language, from the server's catalogue of
// that language (internal/respond/locales): the words the script shows and the
// sentence of every validation message. The form element carries them as JSON
// in data-words, since the page's policy allows no inline script.

const form = document.getElementById("forma-form");
const data = form && form.hasAttribute("data-words")
  ? JSON.parse(form.getAttribute("data-words"))
  : { words: {}, messages: {} };

const PLACEHOLDER = /\{(\w+)\}/g;

// fill replaces each {name} of template that params has with its value, in one
// pass, as the server does.
export function fill(template, params) {
  return template.replace(PLACEHOLDER, (m, name) =>
    params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m);
}

// word is the page's word key, its {name} placeholders filled from params.
export function word(key, params) {
  return fill(Object.prototype.hasOwnProperty.call(data.words, key) ? data.words[key] : key, params);
}

// messages holds the sentence of each validation message by code.
export const messages = data.messages;
