/**
 * Answers of servers that stream although asked not to. Some proxies put in front of a model
 * always stream: they answer a `stream: false` request with server-sent events (`data: {…}`
 * chunks, OpenAI's chat-completions stream) or NDJSON lines (Ollama's `/api/chat` stream),
 * labelled as such or not. The chunks are assembled here into the one answer the request asked
 * for, so that the engines read it as any other.
 *
 * Pure: no I/O.
 */

/**
 * Content types of a streamed body. A body labelled so gets a larger size bound: every chunk
 * repeats the answer's envelope (ids, model, timestamps) around one token's text.
 */
export const STREAM_CONTENT_TYPE = /^\s*(text\/event-stream|application\/(x-)?ndjson)\b/i;

/**
 * How many times the bound of a one-piece answer a streamed one may take: a chunk of vLLM's or
 * OpenAI's stream is 200 to 400 bytes for one token, against the 256 per token of the bound.
 */
export const STREAM_SIZE_FACTOR = 4;

/** The SSE terminator of OpenAI's stream, not an event of the answer. */
const DONE = "[DONE]";

/**
 * The JSON events of a streamed body: the `data` of its server-sent events when it has any,
 * else its lines as NDJSON. Undefined when that is not a stream of at least one JSON event (a
 * page of HTML, a JSON document cut short, `data: hello`).
 *
 * @example
 * ```ts
 * streamEvents('data: {"a": 1}\n\ndata: [DONE]\n\n'); // [{a: 1}]
 * streamEvents('{"a": 1}\n{"a": 2}\n'); // [{a: 1}, {a: 2}]
 * ```
 */
export function streamEvents(text: string): unknown[] | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  const data = lines.some((line) => line.startsWith("data:"))
    ? sseData(lines)
    : lines.filter((line) => line.trim() !== "");
  const events: unknown[] = [];
  for (const item of data) {
    try {
      events.push(JSON.parse(item));
    } catch {
      return undefined;
    }
  }
  return events.length > 0 && events.every(isRecord) ? events : undefined;
}

/**
 * The `data` of each server-sent event (the WHATWG rules: events end at a blank line, several
 * `data:` lines of one event join with a line break, other fields and `:` comments are not
 * data), without OpenAI's `[DONE]`.
 */
function sseData(lines: string[]): string[] {
  const events: string[] = [];
  let current: string[] = [];
  const flush = () => {
    const data = current.join("\n");
    if (current.length > 0 && data.trim() !== DONE) events.push(data);
    current = [];
  };
  for (const line of lines) {
    if (line === "") flush();
    else if (line.startsWith("data:")) current.push(line.slice(line.startsWith("data: ") ? 6 : 5));
  }
  flush();
  return events;
}

/**
 * One `chat.completion` from the chunks of a chat-completions stream: the first choice's
 * `delta` (or `message`, as some proxies send the whole answer in one event) texts joined, and
 * the last finish reason. The first event carrying an `error` is the answer instead, so that
 * its words are quoted.
 */
export function chatCompletionFromChunks(events: unknown[]): unknown {
  const failed = events.find((event) => isRecord(event) && event.error !== undefined);
  if (failed) return failed;
  const content: string[] = [];
  const reasoning: string[] = [];
  let finishReason: unknown = null;
  let chunks = 0;
  for (const event of events as Record<string, unknown>[]) {
    const choices = Array.isArray(event.choices) ? event.choices : [];
    const choice = choices.find((entry) => isRecord(entry) && (entry.index ?? 0) === 0);
    if (!isRecord(choice)) continue;
    const part = choice.delta ?? choice.message;
    if (isRecord(part)) {
      chunks++;
      content.push(...texts(part.content));
      reasoning.push(...texts(part.reasoning_content ?? part.reasoning));
    }
    if (typeof choice.finish_reason === "string") finishReason = choice.finish_reason;
  }
  if (chunks === 0) return { choices: [] };
  const message = {
    role: "assistant",
    // Null when no chunk had text: a thinking model's answer is then read from its reasoning.
    content: content.length > 0 ? content.join("") : null,
    ...(reasoning.length > 0 ? { reasoning_content: reasoning.join("") } : {}),
  };
  return {
    object: "chat.completion",
    choices: [{ index: 0, message, finish_reason: finishReason }],
  };
}

/**
 * One `/api/chat` answer from the lines of Ollama's stream: the message texts (and thinking)
 * joined, and the `done_reason` of the last line. A line carrying an `error` is the answer instead.
 */
export function ollamaChatFromLines(events: unknown[]): unknown {
  const failed = events.find((event) => isRecord(event) && event.error !== undefined);
  if (failed) return failed;
  const content: string[] = [];
  const thinking: string[] = [];
  let doneReason: unknown;
  for (const event of events as Record<string, unknown>[]) {
    if (isRecord(event.message)) {
      content.push(...texts(event.message.content));
      thinking.push(...texts(event.message.thinking));
    }
    if (event.done_reason !== undefined) doneReason = event.done_reason;
  }
  if (!events.some((event) => isRecord(event) && isRecord(event.message))) return {};
  return {
    message: {
      role: "assistant",
      content: content.join(""),
      ...(thinking.length > 0 ? { thinking: thinking.join("") } : {}),
    },
    done: true,
    done_reason: doneReason,
  };
}

/** A chunk's text: a string, or the text parts of an array; nothing for anything else. */
function texts(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (!Array.isArray(value)) return [];
  return value.flatMap((part) =>
    isRecord(part) && part.type === "text" && typeof part.text === "string" ? [part.text] : []
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
