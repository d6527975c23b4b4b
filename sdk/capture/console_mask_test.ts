import assert from "node:assert/strict";
import { Window } from "happy-dom";
import {
  maskConsoleRecord,
  maskedValues,
  maskedValuesPerTask,
  type MaskRules,
  MAX_MASKED_SOURCES,
  withoutConsoleUserinfo,
} from "./console_mask.ts";
import type { RecordedEvent } from "@/sdk/types.ts";

const RULES: MaskRules = {
  maskInputs: true,
  maskAttribute: "data-service-mask",
  blockAttribute: "data-service-block",
};

function page(html: string): Document {
  const window = new Window();
  window.document.body.innerHTML = html;
  return window.document as unknown as Document;
}

const consoleRecord = (...args: string[]): RecordedEvent => ({
  type: 6,
  data: { plugin: "rrweb/console@1", payload: { level: "error", payload: args, trace: [] } },
  timestamp: 1,
} as RecordedEvent);

const args = (event: RecordedEvent) =>
  (event.data as { payload: { payload: string[] } }).payload.payload;

const maskedLine = (doc: Document, line: string, rules = RULES) =>
  args(maskConsoleRecord(consoleRecord(JSON.stringify(line)), () => maskedValues(doc, rules)))[0];

Deno.test("console mask: an input's value quoted by an error is masked, length kept", () => {
  const doc = page(`<input id="e">`);
  (doc.getElementById("e") as HTMLInputElement).value = "ada@secret.test";
  assert.equal(maskedLine(doc, "bad email ada@secret.test!"), '"bad email ***************!"');
});

Deno.test("console mask: values of 3 characters are masked, of 2 are not", () => {
  const doc = page(`<input id="a" value="abc"><input id="b" value="xy">`);
  assert.equal(maskedLine(doc, "abc xy"), '"*** xy"');
});

Deno.test("console mask: with input masking off only passwords and masked or blocked content count", () => {
  const doc = page(
    `<input value="visible-text"><input type="password" value="hunter22">` +
      `<p data-service-mask>Ada Lovelace</p><div data-service-block><input value="in-block">` +
      `</div>`,
  );
  const off = { ...RULES, maskInputs: false };
  assert.equal(
    maskedLine(doc, "visible-text hunter22 Ada Lovelace in-block", off),
    '"visible-text ******** ************ ********"',
  );
  assert.equal(
    maskedLine(doc, "visible-text hunter22 Ada Lovelace in-block"),
    '"************ ******** ************ ********"',
  );
});

Deno.test("console mask: a value with quotes is found in its JSON form; a select's label too", () => {
  const doc = page(
    `<textarea>say "hi"</textarea>` +
      `<select><option value="no">Norway</option><option value="de" selected>Germany</option></select>`,
  );
  assert.equal(maskedLine(doc, 'said say "hi" in Germany (de)'), '"said ******** in ******* (de)"');
});

Deno.test("console mask: other events and lines without masked values pass unchanged", () => {
  const doc = page(`<input value="secret">`);
  const meta = { type: 4, data: { href: "secret" }, timestamp: 1 } as RecordedEvent;
  assert.deepEqual(maskConsoleRecord(meta, () => maskedValues(doc, RULES)), meta);
  assert.equal(maskedLine(doc, "nothing here"), '"nothing here"');
});

Deno.test("console mask: at most MAX_MASKED_SOURCES elements are read", () => {
  const inputs = Array.from(
    { length: MAX_MASKED_SOURCES + 1 },
    (_, i) => `<input value="v${i}zz">`,
  );
  const values = maskedValues(page(inputs.join("")), RULES);
  assert.ok(values.includes(`v${MAX_MASKED_SOURCES - 1}zz`));
  assert.ok(!values.includes(`v${MAX_MASKED_SOURCES}zz`));
});

Deno.test("console mask: log calls in one task share one scan; the next task scans again", async () => {
  let scans = 0;
  const values = maskedValuesPerTask(() => (scans++, ["abc"]));
  values();
  values();
  assert.equal(scans, 1);
  await new Promise((r) => setTimeout(r, 0));
  values();
  assert.equal(scans, 2);
});

Deno.test("console mask: a URL's user and password leave no console line or stack", () => {
  const url = "http://user:pass@127.0.0.1:8123/x";
  const event = consoleRecord(
    JSON.stringify(`Failed to execute 'open' on 'XMLHttpRequest': ${url}`),
    JSON.stringify({ url }),
  );
  (event.data as { payload: { trace: string[] } }).payload.trace = [
    "send (https://u:p@shop.test/app.js:1:2)",
  ];
  const log = (withoutConsoleUserinfo(event).data as {
    payload: { payload: string[]; trace: string[] };
  }).payload;
  assert.deepEqual(log.payload, [
    JSON.stringify("Failed to execute 'open' on 'XMLHttpRequest': http://127.0.0.1:8123/x"),
    JSON.stringify({ url: "http://127.0.0.1:8123/x" }),
  ]);
  assert.deepEqual(log.trace, ["send (https://shop.test/app.js:1:2)"]);
  const meta = { type: 4, data: { href: url }, timestamp: 1 } as RecordedEvent;
  assert.equal(withoutConsoleUserinfo(meta), meta);
});
