/**
 * Answers that stop before their end at the HTTP level: the connection dropped while the body
 * came (a runner crashing mid-generation, a proxy's timeout between it and the model server), or
 * a body whole on the wire whose JSON document ends early (a proxy that closed its side cleanly
 * when its upstream dropped, a `Content-Length` of what it had so far). Neither says anything
 * about the texts: the batch is asked again (see `runBatch`).
 *
 * Pure: no I/O.
 */
import { EngineFailedError, EngineUnavailableError } from "../engine.ts";

/**
 * The connection dropped in the middle of a backend's answer. Still unavailability (503, another
 * engine tried) when it happens again, but asked again once first: a runner that restarts after
 * a crash, or a proxy that timed out once, usually answers the next request.
 */
export class AnswerDroppedError extends EngineUnavailableError {
  override name = "AnswerDroppedError";
}

/**
 * The backend said nothing, or stopped saying anything, within `request_timeout_ms`. Still a
 * failure (500) when it happens again in the job, but asked again once first: a runner loading
 * its model (Ollama, llama.cpp) or waking from swap often misses the first request's timeout and
 * answers the next at once.
 */
export class AnswerTimeoutError extends EngineFailedError {
  override name = "AnswerTimeoutError";
}

/**
 * Whether `text`, which is not JSON, is the start of a JSON object or array cut short: it opens
 * with `{` or `[`, every bracket it closes matches, no string holds a raw control character, and
 * a bracket (or a string) is still open at its end. A page of HTML or plain text is not; `{hello` counts, asked again as a cut answer would
 * be, which costs a request and says what came.
 *
 * @example
 * ```ts
 * endsMidJson('{"choices": [{"message": {"content": "{\\"1'); // true
 * endsMidJson("<html>502 Bad Gateway</html>"); // false
 * ```
 */
export function endsMidJson(text: string): boolean {
  const body = text.trim();
  if (!body.startsWith("{") && !body.startsWith("[")) return false;
  const open: string[] = [];
  let inString = false;
  for (let at = 0; at < body.length; at++) {
    const char = body[at];
    if (inString) {
      if (char === "\\") at++;
      else if (char === '"') inString = false;
      // JSON writes a line break in a string as `\n`: a raw one is lines of something else.
      else if (char < " ") return false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") open.push(char === "{" ? "}" : "]");
    else if (char === "}" || char === "]") {
      if (open.pop() !== char) return false;
      // A whole document with something after it is not cut short: it is something else.
      if (open.length === 0) return false;
    }
  }
  return inString || open.length > 0;
}
