// Which elements a dead click is watched on: every kind the detector names interactive (and a click
// inside one counts for it), never plain text, a link without href or a text field.
import assert from "node:assert/strict";
import { DEAD_CLICK_MS } from "./signals.ts";
import { signalsWorld } from "@/tests/helpers/sdk_signals_world.ts";

/** The dead click's selector after clicking `target` on a page of `html`, or null for none. */
async function deadOn(html: string, target: string): Promise<string | null> {
  using world = signalsWorld(`<main>${html}</main>`);
  // A link's own navigation (a hash change, on the DOM's real timers) would count as something
  // happening before the controlled clock moves: this test is about which elements are watched.
  world.document.addEventListener("click", (event) => {
    if ((event.target as unknown as Element).closest("a[href]")) event.preventDefault();
  });
  world.click(target);
  await world.wait(DEAD_CLICK_MS);
  const dead = world.signals("service:dead_click");
  assert.ok(dead.length <= 1);
  return dead[0]?.selector ?? null;
}

Deno.test("signals: each kind of interactive element is watched for dead clicks", async () => {
  const interactive: [string, string][] = [
    [`<a id="t" href="#x">Link</a>`, "a#t"],
    [`<button id="t">Button</button>`, "button#t"],
    [`<input id="t" type="button" value="B">`, "input#t"],
    [`<input id="t" type="submit">`, "input#t"],
    [`<input id="t" type="reset">`, "input#t"],
    [`<input id="t" type="image" alt="Go">`, "input#t"],
    [`<select id="t"><option>One</option></select>`, "select#t"],
    [`<summary id="t">More</summary>`, "summary#t"],
    [`<label id="t">Label</label>`, "label#t"],
    [`<div id="t" role="button">Role button</div>`, "div#t"],
    [`<span id="t" role="link">Role link</span>`, "span#t"],
    [`<div id="t" role="tab">Tab</div>`, "div#t"],
    [`<li id="t" role="menuitem">Item</li>`, "li#t"],
    [`<div id="t" onclick="void 0">Handler</div>`, "div#t"],
  ];
  for (const [html, selector] of interactive) {
    assert.equal(await deadOn(html, "#t"), selector, html);
  }
});

Deno.test("signals: a click inside an interactive element counts for that element", async () => {
  assert.equal(
    await deadOn(`<button id="b"><span id="icon">★</span> Save</button>`, "#icon"),
    "button#b",
  );
  assert.equal(await deadOn(`<a id="a" href="/x"><b id="in">Go</b></a>`, "#in"), "a#a");
});

Deno.test("signals: a summary that opens its details did something: no dead click", async () => {
  assert.equal(
    await deadOn(`<details><summary id="t">More</summary><p>Body</p></details>`, "#t"),
    null,
  );
});

Deno.test("signals: plain elements, a link without href and text fields are not watched", async () => {
  const plain = [
    `<div id="t">Text</div>`,
    `<p><span id="t">Words</span></p>`,
    `<a id="t">No href</a>`,
    `<input id="t" type="text">`,
    `<textarea id="t"></textarea>`,
    `<div id="t" role="note">Note</div>`,
  ];
  for (const html of plain) assert.equal(await deadOn(html, "#t"), null, html);
});
