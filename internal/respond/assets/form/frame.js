// The page in an iframe of another site (?embed=1, data-embed on the root): it
// tells the embedding page its height whenever that changes, so that Forma's
// embed script there (/embed.js) makes the iframe exactly as tall as the form,
// and it passes Esc on, which closes a popup. The messages carry nothing but a
// height and a key, so they are posted to whichever page embeds this one; the
// embed script checks that they come from Forma's origin and from its own
// iframe.

// startFrame starts telling the parent page the height of this one.
export function startFrame() {
  if (window.parent === window) return;
  const post = (msg) => window.parent.postMessage(msg, "*");
  let last = 0;
  const measure = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    post({ type: "forma:height", height });
  };
  if (typeof ResizeObserver === "function") new ResizeObserver(measure).observe(document.body);
  window.addEventListener("load", measure);
  measure();
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") post({ type: "forma:escape" });
  });
}
