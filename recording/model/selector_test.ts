// The model's selectors follow the SDK's signal rules (sdk/signals/signals.ts selectorOf): the
// nearest interactive element, up to 3 levels, an id ends the walk, two classes, nth-of-type
// among same-tag siblings, never the html element; CSS.escape's output.
import assert from "node:assert/strict";
import { DomModel, type ModelNode } from "./dom_model.ts";
import { clickTarget, cssEscape, modelSelector } from "./selector.ts";
import { NODE, pageSnapshot } from "@/tests/helpers/heatmap_recording.ts";

const model = () => new DomModel(pageSnapshot() as ModelNode, 1000);
const selectorOf = (id: number) => {
  const m = model();
  return modelSelector(m, clickTarget(m, id)!);
};

Deno.test("model selector: an id ends the walk; a text node counts for its element", () => {
  assert.equal(selectorOf(NODE.buy), "button#buy");
  assert.equal(selectorOf(NODE.buyText), "button#buy");
});

Deno.test("model selector: classes (two, each once), nth-of-type among same tags, 3 levels", () => {
  assert.equal(selectorOf(NODE.second), "body > div.toolbar.main > button.ghost:nth-of-type(2)");
  assert.equal(selectorOf(NODE.third), "body > div.toolbar.main > button:nth-of-type(3)");
});

Deno.test("model selector: the nearest interactive ancestor; the html element is never named", () => {
  assert.equal(selectorOf(NODE.linkSpan), "body > a"); // the span is inside a[href]
  assert.equal(selectorOf(NODE.paragraph), "body > p");
  assert.equal(selectorOf(NODE.body), "body");
});

Deno.test("model selector: a selector past 256 characters is cut with a mark", () => {
  const long = "x".repeat(400);
  const m = new DomModel({
    type: 0,
    id: 1,
    childNodes: [{
      type: 2,
      tagName: "html",
      id: 2,
      attributes: {},
      childNodes: [{ type: 2, tagName: "button", id: 3, attributes: { id: long }, childNodes: [] }],
    }],
  }, 10);
  const selector = modelSelector(m, m.node(3)!);
  assert.equal(selector.length, 256);
  assert.ok(selector.endsWith("…"));
});

Deno.test("cssEscape: CSSOM's serialize-an-identifier", () => {
  assert.equal(cssEscape("buy"), "buy");
  assert.equal(cssEscape("1a"), "\\31 a");
  assert.equal(cssEscape("-1"), "-\\31 ");
  assert.equal(cssEscape("-"), "\\-");
  assert.equal(cssEscape("a.b:c"), "a\\.b\\:c");
  assert.equal(cssEscape("é_-"), "é_-");
  assert.equal(cssEscape("a\u0000"), "a\uFFFD");
});
