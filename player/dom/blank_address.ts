// Keeps a replay frame's document at about:blank, so loads started by recorded CSS carry no
// Referer. Chromium names the document's address in the Referer of every load an inline
// stylesheet or style attribute starts, whatever the referrer policy (the page's
// `Referrer-Policy: no-referrer` and a `<meta name="referrer">` alike are ignored for those loads);
// an about:blank address gives none. rrweb resets its frame with `document.open()`, which gives the
// document the address of the entry document: the dashboard page's, when the player calls it.
// Called on behalf of an empty about:blank window of our own instead, it keeps about:blank.

let helper: HTMLIFrameElement | null = null;

/** An empty same-origin window with scripts allowed, created once per page. */
function helperWindow(): (Window & typeof globalThis) | null {
  if (!helper?.isConnected) {
    helper = document.createElement("iframe");
    helper.hidden = true;
    helper.tabIndex = -1;
    helper.setAttribute("aria-hidden", "true");
    helper.className = "replay-blank-entry";
    document.body.append(helper);
  }
  return helper.contentWindow as (Window & typeof globalThis) | null;
}

/**
 * Makes `document.open()` of `iframe`'s document keep its about:blank address. The real `open` is
 * run as a listener of an event target of the helper window, dispatched at once: a listener is
 * entered in its own window (a bound function's is its target's), which makes that window the
 * entry one. Without a helper window, `open` stays as it is.
 */
export function keepBlankAddress(iframe: HTMLIFrameElement) {
  const doc = iframe.contentDocument;
  const entry = helperWindow();
  if (!doc || !entry) return;
  const open = Document.prototype.open;
  Object.defineProperty(doc, "open", {
    configurable: true,
    value: function openKeepingAddress(this: Document) {
      const target = new entry.EventTarget();
      target.addEventListener("open", entry.Reflect.apply.bind(null, open, doc, []));
      target.dispatchEvent(new entry.Event("open"));
      return doc;
    },
  });
}
