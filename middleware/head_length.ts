/**
 * A HEAD answer's `Content-Length` is the length its GET would have (RFC 9110 §9.3.2): Hono
 * answers HEAD by running the GET route and dropping the body, and Deno then writes
 * `Content-Length: 0` for the empty body, telling a client that checks sizes first (download
 * managers, caches, `curl -I`) that there is nothing to get.
 */
import type { MiddlewareHandler } from "hono";

/** Sets `Content-Length` on the answer of a HEAD request to its GET body's length. */
export function headLength(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "HEAD") return await next(); // every other request: one test
    await next();
    if (!c.res.body || c.res.headers.has("content-length")) return;
    // An event stream has no length: it is not read here.
    if (c.res.headers.get("content-type")?.startsWith("text/event-stream")) return;
    const length = (await c.res.clone().arrayBuffer()).byteLength;
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("content-length", String(length));
  };
}
