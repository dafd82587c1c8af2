/**
 * The reply side of one WebSocket connection: one reply per request frame, released in request
 * order, with at most {@link MAX_FRAMES_IN_FLIGHT} frames being worked on at once.
 *
 * Deno's server WebSocket cannot stop reading a socket, so backpressure is applied by what a frame
 * costs once read: a frame over the cap is not parsed or kept, it is answered (in its turn) with a
 * 503 `engine_unavailable` error frame, and consecutive refusals are one counter. A client that
 * pipelines 10,000 frames therefore holds at most 32 frames plus a few counters in the server.
 */

/** Frames of one connection being worked on or waiting for their turn to be sent. */
export const MAX_FRAMES_IN_FLIGHT = 32;

/** Ordered, capped replies of one connection. */
export class ReplyWindow {
  readonly #send: (body: unknown) => boolean;
  readonly #cap: number;
  #tail: Promise<void> = Promise.resolve();
  #inFlight = 0;
  /** The refusal run at the end of the line not yet sent, which a new refusal joins. */
  #openRefusals?: { count: number; body: unknown };

  /** `send` writes one reply and says whether the socket is still open. */
  constructor(send: (body: unknown) => boolean, cap = MAX_FRAMES_IN_FLIGHT) {
    this.#send = send;
    this.#cap = cap;
  }

  /** Whether another frame may be worked on now. */
  get hasRoom(): boolean {
    return this.#inFlight < this.#cap;
  }

  /** Frames being worked on or waiting to be sent. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Queues the reply of an accepted frame; `afterSend` runs once it was sent. */
  accept(reply: Promise<unknown>, afterSend?: () => void): void {
    this.#inFlight++;
    this.#openRefusals = undefined;
    this.#chain(async () => {
      try {
        const body = await reply;
        if (this.#send(body)) afterSend?.();
      } finally {
        this.#inFlight--;
      }
    });
  }

  /**
   * Queues `body` as the reply of a frame that was not worked on, coalesced with the refusals
   * before it when they say the same (a run over the cap, then shutdown, are two runs).
   */
  refuse(body: unknown): void {
    const open = this.#openRefusals;
    if (open && open.body === body) {
      open.count++;
      return;
    }
    const run = { count: 1, body };
    this.#openRefusals = run;
    this.#chain(() => {
      if (this.#openRefusals === run) this.#openRefusals = undefined;
      for (let i = 0; i < run.count; i++) {
        if (!this.#send(run.body)) return Promise.resolve();
      }
      return Promise.resolve();
    });
  }

  /**
   * Settles once every reply queued was sent (or found its socket closed), those queued while
   * it waits included.
   */
  async settled(): Promise<void> {
    let tail: Promise<void>;
    do {
      tail = this.#tail;
      await tail;
    } while (tail !== this.#tail);
  }

  #chain(step: () => Promise<void>): void {
    this.#tail = this.#tail.then(step);
  }
}
