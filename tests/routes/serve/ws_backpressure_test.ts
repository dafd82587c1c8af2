import assert from "node:assert/strict";
import { FRENCH } from "../../support/sample_texts.ts";
import { ErrorResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { MAX_FRAMES_IN_FLIGHT, ReplyWindow } from "../../../routes/serve/ws_reply_window.ts";
import {
  postTranslate,
  withTranslationService as withService,
} from "../../support/translation_service.ts";
import { expectError } from "../../support/http_assertions.ts";
import { close, connect } from "../../support/ws_client.ts";
import { rawUpgrade, WEBSOCKET_KEY } from "../../support/raw_http.ts";
import { MAX_UNREAD_REPLY_BYTES } from "../../../routes/serve/ws_translate.ts";

const passthrough = (n: number) => ({ source: "en", target: "en", texts: [`frame ${n}`] });

Deno.test("a client pipelining 10,000 frames gets exactly one reply per frame, in order, frames over the in-flight cap refused with 503", async () => {
  await withService(async (service) => {
    const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
    const total = 10_000;
    // Engine work first, so the pass-through frames behind it pile up over the cap.
    client.socket.send(JSON.stringify({ target: "de", texts: [FRENCH, FRENCH, FRENCH] }));
    for (let n = 1; n < total; n++) client.socket.send(JSON.stringify(passthrough(n)));
    TranslateResponseSchema.parse(await client.next());
    let answered = 0;
    let refused = 0;
    for (let n = 1; n < total; n++) {
      const reply = await client.next();
      const error = ErrorResponseSchema.safeParse(reply);
      if (error.success) {
        assert.equal(error.data.error.code, "engine_unavailable");
        assert.match(error.data.error.message, new RegExp(`more than ${MAX_FRAMES_IN_FLIGHT}`));
        refused++;
      } else {
        assert.equal(TranslateResponseSchema.parse(reply).results[0].text, `frame ${n}`);
        answered++;
      }
    }
    assert.ok(refused > 0, "frames over the cap were refused");
    assert.ok(answered >= MAX_FRAMES_IN_FLIGHT - 1, `answered ${answered}`);
    // The connection is still usable once the replies were read.
    client.socket.send(JSON.stringify(passthrough(total)));
    assert.equal(
      TranslateResponseSchema.parse(await client.next()).results[0].text,
      `frame ${total}`,
    );
    await close(client);
  });
});

Deno.test("ReplyWindow holds at most its cap of frames and keeps 10,000 refusals as one counter, replies in order", async () => {
  const sent: unknown[] = [];
  const window = new ReplyWindow((body) => (sent.push(body), true), 2);
  let release!: (body: unknown) => void;
  window.accept(new Promise((resolve) => (release = resolve)));
  window.accept(Promise.resolve("second"));
  assert.equal(window.hasRoom, false);
  for (let i = 0; i < 10_000; i++) window.refuse("refused");
  window.accept(Promise.resolve("never over the cap"));
  assert.equal(window.inFlight, 3, "an accepted frame after refusals is still counted");
  release("first");
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(sent.length, 10_003);
  assert.deepEqual(sent.slice(0, 3), ["first", "second", "refused"]);
  assert.equal(sent.at(-1), "never over the cap");
  assert.equal(window.inFlight, 0);
});

Deno.test("ReplyWindow: refusals of another reason behind a refusal run keep their own reply", async () => {
  const sent: unknown[] = [];
  const window = new ReplyWindow((body) => (sent.push(body), true), 1);
  let release!: (body: unknown) => void;
  window.accept(new Promise((resolve) => (release = resolve)));
  // Frames over the cap, then (the service began shutting down) frames refused for that.
  window.refuse("over the cap");
  window.refuse("over the cap");
  window.refuse("shutting down");
  window.refuse("shutting down");
  release("first");
  await window.settled();
  assert.deepEqual(sent, [
    "first",
    "over the cap",
    "over the cap",
    "shutting down",
    "shutting down",
  ]);
});

Deno.test("one connection's burst of engine frames does not starve another connection's engine frame", async () => {
  await withService(async (service) => {
    const url = `${service.wsUrl}/v1/ws/translate?token=${service.token}`;
    const burst = await connect(url);
    const other = await connect(url);
    const frame = JSON.stringify({ target: "de", texts: [FRENCH] });
    for (let i = 0; i < 12; i++) burst.socket.send(frame);
    await new Promise((resolve) => setTimeout(resolve, 50));
    other.socket.send(frame);
    const order: string[] = [];
    const otherDone = other.next().then(() => order.push("other"));
    for (let i = 0; i < 12; i++) {
      TranslateResponseSchema.parse(await burst.next());
      order.push("burst");
    }
    await otherDone;
    assert.ok(
      order.indexOf("other") < 6,
      `the other connection waited behind the whole burst: ${order.join(",")}`,
    );
    await close(burst);
    await close(other);
  });
});

Deno.test("an engine job that would wait beyond the wait budget behind another connection's is answered 503 at once, over WebSocket and HTTP; the connection alone gets every answer", async () => {
  // A zero budget: any job with another connection's job ahead of it would wait too long.
  const localQueue = { concurrency: 1, maxWaiting: 32, waitBudgetMs: 0, minWaiting: 0 };
  await withService(async (service) => {
    const url = `${service.wsUrl}/v1/ws/translate?token=${service.token}`;
    const alone = await connect(url);
    const late = await connect(url);
    const frame = JSON.stringify({ target: "de", texts: [FRENCH] });
    for (let i = 0; i < 12; i++) alone.socket.send(frame);
    // Its first answer measured a job; 11 of its jobs are still running or waiting.
    TranslateResponseSchema.parse(await alone.next());
    late.socket.send(frame);
    const http = await postTranslate(service, { target: "de", texts: [FRENCH] });
    const refused = ErrorResponseSchema.parse(await late.next()).error;
    assert.equal(refused.code, "engine_unavailable");
    assert.match(refused.message, /busy.*retry in \d+ s/);
    await expectError(http, 503, "engine_unavailable", null);
    assert.match(http.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
    for (let i = 1; i < 12; i++) TranslateResponseSchema.parse(await alone.next());
    await close(alone);
    await close(late);
  }, { localQueue });
});

Deno.test("a client that keeps sending and never reads is cut off once its unread replies pass the bound, not buffered without end", async () => {
  await withService(async (service) => {
    // A raw client: a WebSocket object reads whatever arrives, this one reads nothing.
    const connection = await rawUpgrade(service.url, `/v1/ws/translate?token=${service.token}`, {
      Host: "localhost",
      Upgrade: "websocket",
      Connection: "Upgrade",
      ...WEBSOCKET_KEY,
    });
    assert.equal(connection.status, 101);
    // Frames answered at once, each by an error frame ~20 times its size: replies outrun reading.
    const reply = JSON.stringify(
      ErrorResponseSchema.parse({
        error: {
          code: "invalid_request",
          message: "the frame is not valid JSON",
          type: "invalid_request_error",
          param: null,
        },
      }),
    );
    const frames = Math.ceil((4 * MAX_UNREAD_REPLY_BYTES) / reply.length);
    let sent = 0;
    try {
      for (; sent < frames; sent++) await connection.send("x");
    } catch {
      // The server closed the connection: the writes of a client it cut off fail.
    }
    const received = await framesWhenClosed(service.logs);
    connection.close();
    assert.ok(received !== undefined, `the server kept the socket after ${sent} frames`);
    // Cut off near the bound (the kernel's socket buffers hold some replies too), well before all.
    assert.ok(received < frames / 2, `closed after ${received} of ${frames} frames`);
  });
});

/** The frame count of the service's `ws closed` line, once it is written (within 5 s). */
async function framesWhenClosed(logs: string[]): Promise<number | undefined> {
  for (let wait = 0; wait < 50; wait++) {
    const line = logs.find((line) => / ws closed after \d+ frames$/.test(line));
    if (line) return Number(line.match(/after (\d+) frames/)![1]);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}
