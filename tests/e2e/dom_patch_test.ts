// Browser test of the keyframe patch (player/dom/dom_patch.ts) in Chromium: a document patched to
// another ends up equal to it (markup, form state), keeps the nodes that did not change (the same
// objects, a kept stylesheet's rules intact) and replaces only what differs.
import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import type { Page } from "playwright-core";
import { launchChromium } from "@/tests/helpers/browser.ts";

async function patchScript(): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [new URL("../../player/dom/dom_patch.ts", import.meta.url).pathname],
    bundle: true,
    format: "iife",
    globalName: "domPatch",
    write: false,
  });
  await esbuild.stop();
  return result.outputFiles[0].text;
}

const BEFORE = `<!doctype html><html><head><style id="rules"></style></head><body class="a">
<p id="same">unchanged <b>text</b></p>
<p id="text">old text</p>
<svg><use href="#x" xlink:href="#old"></use></svg>
<ul><li>1</li><li>2</li><li>3</li></ul>
<div id="kind"><span>span</span></div>
<input id="field" value="typed before"><input id="box" type="checkbox">
<textarea id="area">old</textarea>
<select id="pick"><option>one</option><option selected>two</option></select>
</body></html>`;

const AFTER =
  `<!doctype html><html><head><style id="rules"></style></head><body class="b" data-new="1">
<p id="same">unchanged <b>text</b></p>
<p id="text">new text</p>
<svg><use href="#x" xlink:href="#new"></use></svg>
<ul><li>1</li><li>two</li></ul>
<div id="kind"><em>em</em><!-- note --></div>
<input id="field" value="typed before"><input id="box" type="checkbox" checked>
<textarea id="area">old</textarea>
<select id="pick"><option>one</option><option selected>two</option></select>
</body></html>`;

interface Outcome {
  equalMarkup: boolean;
  values: string[];
  sameObjects: boolean[];
  rules: number;
}

/** In the page: two iframes from BEFORE and AFTER, state set as a user would, then the patch. */
function patchInPage(page: Page, before: string, after: string): Promise<Outcome> {
  return page.evaluate(async ({ before, after }) => {
    const frame = async (html: string) => {
      const iframe = document.createElement("iframe");
      document.body.append(iframe);
      iframe.srcdoc = html;
      await new Promise((done) => iframe.addEventListener("load", done, { once: true }));
      return iframe.contentDocument!;
    };
    const live = await frame(before);
    const target = await frame(after);
    // State only properties hold: typed values, a checked box, a selection, CSSOM rules.
    (live.getElementById("field") as HTMLInputElement).value = "typed after";
    (live.getElementById("box") as HTMLInputElement).checked = false; // its attribute no longer rules
    (target.getElementById("field") as HTMLInputElement).value = "typed later";
    (target.getElementById("area") as HTMLTextAreaElement).value = "edited";
    (target.getElementById("pick") as HTMLSelectElement).selectedIndex = 0;
    // A prefixed name with no namespace, as rrweb's build sets SVG attributes (swagger-ui's).
    target.querySelector("use")!.setAttribute("xlink:title", "set without a namespace");
    (live.getElementById("rules") as HTMLStyleElement).sheet!.insertRule("p { color: red }");
    const kept = ["same", "text", "rules"].map((id) => live.getElementById(id));
    // deno-lint-ignore no-explicit-any
    const { patchDocumentElement } = (globalThis as any).domPatch;
    patchDocumentElement(live, target.documentElement);
    const field = (doc: Document, id: string) => (doc.getElementById(id) as HTMLInputElement);
    const state = (doc: Document) =>
      [
        field(doc, "field").value,
        String(field(doc, "box").checked),
        field(doc, "area").value,
        String((doc.getElementById("pick") as HTMLSelectElement).selectedIndex),
      ].join("|");
    return {
      equalMarkup: live.documentElement.outerHTML === target.documentElement.outerHTML,
      values: [state(live), state(target)],
      sameObjects: ["same", "text", "rules"].map((id, i) => live.getElementById(id) === kept[i]),
      rules: (live.getElementById("rules") as HTMLStyleElement).sheet!.cssRules.length,
    };
  }, { before, after });
}

Deno.test("dom patch e2e: the patched document equals the target, and keeps what did not change", async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.addScriptTag({ content: await patchScript() });
    const outcome = await patchInPage(page, BEFORE, AFTER);
    assert.equal(outcome.equalMarkup, true, "markup equals the target's");
    assert.equal(outcome.values[0], outcome.values[1], "form state equals the target's");
    assert.equal(outcome.values[0], "typed later|true|edited|0");
    assert.deepEqual(outcome.sameObjects, [true, true, true], "unchanged nodes are kept");
    assert.equal(outcome.rules, 1, "a kept style element keeps its CSSOM rules");
  } finally {
    await browser.close();
  }
});
