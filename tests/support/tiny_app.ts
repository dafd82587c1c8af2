/**
 * A tiny Hono app served on 127.0.0.1:0, for testing one middleware through real HTTP.
 */

/** What is served: a Hono app or anything with its `fetch`. */
export interface Fetchable {
  fetch: (request: Request) => Response | Promise<Response>;
}

/** A running tiny app. */
export interface TinyServer {
  url: string;
  stop(): Promise<void>;
}

/** Serves `app` on a free loopback port; always `await server.stop()` in a `finally`. */
export function serveTiny(app: Fetchable): TinyServer {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => app.fetch(request),
  );
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, stop: () => server.shutdown() };
}

/** Runs `fn` against `app` served on loopback and always stops it. */
export async function withTinyApp(
  app: Fetchable,
  fn: (url: string) => Promise<void>,
): Promise<void> {
  const server = serveTiny(app);
  try {
    await fn(server.url);
  } finally {
    await server.stop();
  }
}

/** The error a tiny app's middleware throws: it carries the status it is answered with. */
export class Refusal extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Answers a thrown {@link Refusal} with its status and message as text. */
export function renderRefusal(error: Error): Response {
  const status = error instanceof Refusal ? error.status : 500;
  return new Response(error.message, { status });
}
