import assert from "node:assert/strict";
import { FrameTurns } from "../../../routes/serve/ws_frame_turns.ts";

/** Synchronous work of `ms` milliseconds, like a frame's parse, detect and plan. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) { /* the frame's synchronous work */ }
}

Deno.test("FrameTurns runs frame work in arrival order and settles each with its own result", async () => {
  const turns = new FrameTurns();
  const order: number[] = [];
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) => turns.run(() => (order.push(i), Promise.resolve(i * 2)))),
  );
  assert.deepEqual(order, Array.from({ length: 50 }, (_, i) => i));
  assert.deepEqual(results, order.map((i) => i * 2));
  assert.equal(turns.waiting, 0);
});

Deno.test("FrameTurns passes a throwing frame's error to that frame only", async () => {
  const turns = new FrameTurns();
  const failing = turns.run<number>(() => {
    throw new Error("bad frame");
  });
  const fine = turns.run(() => Promise.resolve(1));
  await assert.rejects(failing, /bad frame/);
  assert.equal(await fine, 1);
});

Deno.test("FrameTurns yields to the event loop between turns: I/O queued behind 100 slow frames runs before the last of them", async () => {
  const turns = new FrameTurns(5);
  const done: number[] = [];
  const frames = Array.from(
    { length: 100 },
    (_, i) => turns.run(() => (busy(1), done.push(i), Promise.resolve())),
  );
  // A timer stands for a socket or an HTTP request that becomes ready meanwhile.
  const framesBeforeTimer = await new Promise<number>((resolve) =>
    setTimeout(() => resolve(done.length), 0)
  );
  await Promise.all(frames);
  assert.ok(framesBeforeTimer < 100, `the timer waited for all ${framesBeforeTimer} frames`);
  assert.ok(framesBeforeTimer > 0, "a turn runs frames before the loop polls again");
});

Deno.test("FrameTurns lets an HTTP request on loopback be answered long before a deep queue of frames is done", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("ok"),
  );
  const turns = new FrameTurns(4);
  const done: number[] = [];
  const frames = Array.from(
    { length: 600 },
    (_, i) => turns.run(() => (busy(1), done.push(i), Promise.resolve())),
  );
  // Both sides of the request need the loop to poll its sockets: a yield that never lets tokio
  // poll I/O (setImmediate alone) answers it only after ~61 turns, or after the whole queue.
  const response = await fetch(`http://127.0.0.1:${server.addr.port}/`);
  await response.text();
  const framesBeforeAnswer = done.length;
  await Promise.all(frames);
  assert.ok(
    framesBeforeAnswer < 150,
    `the request waited for ${framesBeforeAnswer} of 600 frames (150 turns)`,
  );
});

Deno.test("FrameTurns.turn is one number for the frames started together and a new one for frames that arrive later", async () => {
  const turns = new FrameTurns();
  const seen: number[] = [];
  const note = () => (seen.push(turns.turn), Promise.resolve());
  await Promise.all([turns.run(note), turns.run(note), turns.run(note)]);
  await turns.run(note);
  assert.equal(new Set(seen.slice(0, 3)).size, 1, "queued together, started in one turn");
  assert.notEqual(seen[3], seen[0], "a frame queued after that turn ran starts in another");
});
