import assert from "node:assert/strict";
import { newTranslationId } from "../../storage/history_id.ts";
import { TranslateResponseSchema } from "../../schemas/translation.ts";
import { postTranslate, withTranslationService } from "../support/translation_service.ts";

const UUID_V7 = /^tr_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const TIME_CASES = [
  { name: "the epoch", ms: 0, prefix: "tr_00000000-0000-7" },
  { name: "2026-11-23", ms: 1795459669939, prefix: "tr_01a209bc-5fb3-7" },
  { name: "the last 48-bit millisecond", ms: 2 ** 48 - 1, prefix: "tr_ffffffff-ffff-7" },
];

for (const row of TIME_CASES) {
  Deno.test(`newTranslationId carries the milliseconds first, version 7: ${row.name}`, () => {
    const id = newTranslationId(row.ms);
    assert.match(id, UUID_V7);
    assert.ok(id.startsWith(row.prefix), id);
  });
}

Deno.test("newTranslationId sorts as time does and never repeats (ids of 1,000 milliseconds)", () => {
  const ids = Array.from({ length: 1000 }, (_, ms) => newTranslationId(1795459669939 + ms));
  assert.deepEqual([...ids].sort(), ids);
  const many = new Set(Array.from({ length: 10_000 }, () => newTranslationId(1795459669939)));
  assert.equal(many.size, 10_000);
});

Deno.test("a translation's id is tr_ and a time-ordered UUID", async () => {
  await withTranslationService(async (service) => {
    const before = Date.now();
    const response = await postTranslate(service, { source: "en", target: "en", texts: ["Hi"] });
    const { id } = TranslateResponseSchema.parse(await response.json());
    assert.match(id, UUID_V7);
    const ms = parseInt(id.slice(3, 11) + id.slice(12, 16), 16);
    assert.ok(ms >= before && ms <= Date.now(), `${ms} is the time of the request`);
  });
});
