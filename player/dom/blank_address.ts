// Keeps a replay frame's document at about:blank, and loaded, through rrweb's resets. About:blank,
// so that loads started by recorded CSS carry no Referer: Chromium names the document's address in
// the Referer of every load an inline stylesheet or style attribute starts, whatever the referrer
// policy (the page's `Referrer-Policy: no-referrer` and a `<meta name="referrer">` alike are
// ignored for those loads); an about:blank address gives none. rrweb resets its frame with
// `document.open()`, which gives the document the address of the entry document: the dashboard
// page's, when the player calls it. Called on behalf of an empty about:blank window of our own
// instead, it keeps about:blank. Loaded, so that the recording's images, stylesheets and fonts never
// hold the replay page's own `load`: an open document is loading until it is closed, and while the
// page is loading Chromium counts a frame opened under it as part of its load (so a recorded server
// that never answers kept the tab's spinner going). The reset closes the document at once, before
// rrweb adds a node, so what the recording loads is loaded by a document that has finished.

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
 * Makes rrweb's resets of `iframe`'s document keep its about:blank address and leave it loaded:
 * `document.open()` and, for a recording in quirks mode without a doctype, the doctype rrweb writes
 * after it. The real `open` is run as a listener of an event target of the helper window,
 * dispatched at once: a listener is entered in its own window (a bound function's is its target's),
 * which makes that window the entry one. A doctype is written and the document closed, which sets
 * its mode as rrweb's open (no-quirks) or its doctype (quirks) would; then the parsed document is
 * emptied for rrweb to build in. Without a helper window, both stay as they are.
 */
export function keepBlankAddress(iframe: HTMLIFrameElement) {
  const doc = iframe.contentDocument;
  const entry = helperWindow();
  if (!doc || !entry) return;
  const { open, write, close } = Document.prototype;
  const reset = (doctype: string) => {
    const target = new entry.EventTarget();
    target.addEventListener("open", entry.Reflect.apply.bind(null, open, doc, []));
    target.dispatchEvent(new entry.Event("open"));
    write.call(doc, doctype);
    close.call(doc);
  };
  Object.defineProperty(doc, "open", {
    configurable: true,
    value: function openKeepingAddress(this: Document) {
      reset("<!DOCTYPE html>");
      doc.replaceChildren();
      return doc;
    },
  });
  // rrweb writes only a quirks doctype, right after `open()`: the document is reset with it, and
  // keeps the doctype it parsed, as rrweb's open document would.
  Object.defineProperty(doc, "write", {
    configurable: true,
    value: function writeDoctype(this: Document, doctype: string) {
      reset(doctype);
      doc.documentElement?.remove();
    },
  });
}
