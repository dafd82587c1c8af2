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

/** The JSON events of a streamed body, and whether it ended as a whole stream does. */
export interface StreamEvents {
  events: Record<string, unknown>[];
  /** The SSE stream's `[DONE]` came (NDJSON has no terminator of its own: false). */
  done: boolean;
}

/**
 * The JSON events of a streamed body: the `data` of its server-sent events when it has any,
 * else its lines as NDJSON, without a last event cut in the middle when no `[DONE]` came.
 * Undefined when that is not a stream of at least one JSON event (a page of HTML, a
 * pretty-printed JSON document cut short, `data: hello`).
 *
 * @example
 * ```ts
 * streamEvents('data: {"a": 1}\n\ndata: [DONE]\n\n'); // {events: [{a: 1}], done: true}
 * streamEvents('{"a": 1}\n{"a": 2}\n'); // {events: [{a: 1}, {a: 2}], done: false}
 * ```
 */
export function streamEvents(text: string): StreamEvents | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  const sse = lines.some((line) => line.startsWith("data:"));
  const data = sse ? sseData(lines) : lines.filter((line) => line.trim() !== "");
  const done = sse && data.at(-1)?.trim() === DONE;
  const items = done ? data.slice(0, -1) : data;
  const events: unknown[] = [];
  for (const [at, item] of items.entries()) {
    try {
      events.push(JSON.parse(item));
    } catch {
      // The last event of a stream without its end, cut in the middle: the events before it
      // are the stream's, read as cut short. Anywhere else it is no stream.
      if (done || at < items.length - 1) return undefined;
    }
  }
  return events.length > 0 && events.every(isRecord)
    ? { events: events as Record<string, unknown>[], done }
    : undefined;
}

/**
 * The `data` of each server-sent event (the WHATWG rules: events end at a blank line, several
 * `data:` lines of one event join with a line break, other fields and `:` comments are not
 * data), up to OpenAI's `[DONE]`, kept as the last one when it came.
 */
function sseData(lines: string[]): string[] {
  const events: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0 && events.at(-1)?.trim() !== DONE) events.push(current.join("\n"));
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
 * Marks an answer assembled from a stream that stopped before its end, its value saying how:
 * the connection closed mid-answer (a proxy whose server crashed, a timeout between them), so
 * that what came is no answer, however well it parses. Read by {@link cutShort}.
 */
const CUT_SHORT: unique symbol = Symbol("stream cut short");

/** Why `answer` (an assembled stream) is cut short, or undefined for a whole one. */
export function cutShort(answer: unknown): string | undefined {
  return isRecord(answer) ? (answer as { [CUT_SHORT]?: string })[CUT_SHORT] : undefined;
}

/** An answer that is none, {@link cutShort} for `reason` (a body whose JSON ended early). */
export function cutShortAnswer(reason: string): Record<string, unknown> {
  return { [CUT_SHORT]: reason };
}

/**
 * One `chat.completion` from the chunks of a chat-completions stream: the first choice's
 * `delta` (or `message`, as some proxies send the whole answer in one event) texts (content,
 * reasoning, a refusal) joined, its
 * tool calls' `arguments` joined per call `index` (OpenAI streams them in fragments), and the
 * last finish reason. The first event carrying an `error` is the answer instead, so that its
 * words are quoted. A stream with neither `[DONE]` nor a finish reason is {@link cutShort}.
 */
export function chatCompletionFromChunks({ events, done }: StreamEvents): unknown {
  const failed = events.find(saysError);
  if (failed) return failed;
  const content: string[] = [];
  const reasoning: string[] = [];
  const refusal: string[] = [];
  const calls = new Map<number, ToolCall>();
  let finishReason: unknown = null;
  let chunks = 0;
  for (const event of events) {
    const choices = Array.isArray(event.choices) ? event.choices : [];
    const choice = choices.find((entry) => isRecord(entry) && (entry.index ?? 0) === 0);
    if (!isRecord(choice)) continue;
    const part = choice.delta ?? choice.message;
    if (isRecord(part)) {
      chunks++;
      content.push(...texts(part.content));
      reasoning.push(...texts(part.reasoning_content ?? part.reasoning));
      refusal.push(...texts(part.refusal));
      joinToolCalls(calls, part.tool_calls);
    }
    if (typeof choice.finish_reason === "string") finishReason = choice.finish_reason;
  }
  if (chunks === 0) return { choices: [] };
  const message = {
    role: "assistant",
    // Null when no chunk had text: a thinking model's answer is then read from its reasoning.
    content: content.length > 0 ? content.join("") : null,
    ...(reasoning.length > 0 ? { reasoning_content: reasoning.join("") } : {}),
    ...(refusal.length > 0 ? { refusal: refusal.join("") } : {}),
    ...(calls.size > 0
      ? { tool_calls: [...calls].sort(([a], [b]) => a - b).map(([, call]) => call) }
      : {}),
  };
  return {
    object: "chat.completion",
    choices: [{ index: 0, message, finish_reason: finishReason }],
    ...(done || finishReason !== null ? {} : {
      [CUT_SHORT]: "the server's stream ended before its answer did (neither a finish_reason " +
        "nor [DONE] came: the connection closed mid-answer)",
    }),
  };
}

/** A tool call assembled from its fragments. */
interface ToolCall {
  id?: unknown;
  type?: unknown;
  function: { name?: unknown; arguments?: unknown };
}

/**
 * Adds a delta's `tool_calls` fragments to `calls`: the first fragment of a call brings its id
 * and name, the later ones only its `index` and a piece of `arguments`. An `arguments` object
 * (some servers send the whole call at once) is kept as it is.
 */
function joinToolCalls(calls: Map<number, ToolCall>, fragments: unknown): void {
  if (!Array.isArray(fragments)) return;
  fragments.forEach((fragment, position) => {
    if (!isRecord(fragment)) return;
    const index = typeof fragment.index === "number" ? fragment.index : position;
    const call = calls.get(index) ?? { function: {} };
    calls.set(index, call);
    call.id ??= fragment.id;
    call.type ??= fragment.type;
    const fn = isRecord(fragment.function) ? fragment.function : {};
    call.function.name ??= fn.name;
    const args = fn.arguments;
    if (typeof args === "string" && typeof call.function.arguments !== "object") {
      call.function.arguments = `${call.function.arguments ?? ""}${args}`;
    } else if (isRecord(args)) call.function.arguments = args;
  });
}

/**
 * One `/api/chat` answer from the lines of Ollama's stream: the message texts (and thinking)
 * joined, and the `done_reason` of the last line. A line carrying an `error` is the answer
 * instead. A stream without its `done: true` line is {@link cutShort}.
 */
export function ollamaChatFromLines({ events }: StreamEvents): unknown {
  const failed = events.find(saysError);
  if (failed) return failed;
  const content: string[] = [];
  const thinking: string[] = [];
  let doneReason: unknown;
  for (const event of events) {
    if (isRecord(event.message)) {
      content.push(...texts(event.message.content));
      thinking.push(...texts(event.message.thinking));
    }
    if (event.done_reason !== undefined) doneReason = event.done_reason;
  }
  if (!events.some((event) => isRecord(event.message))) return {};
  return {
    message: {
      role: "assistant",
      content: content.join(""),
      ...(thinking.length > 0 ? { thinking: thinking.join("") } : {}),
    },
    done: true,
    done_reason: doneReason,
    ...(events.some((event) => event.done === true) ? {} : {
      [CUT_SHORT]: "the server's stream ended before its answer did (no line said done: true: " +
        "the connection closed mid-answer)",
    }),
  };
}

/**
 * Whether a stream event carries an error. `error: null` is none: Microsoft's Foundry Local
 * writes it in every chunk of a good answer.
 */
function saysError(event: Record<string, unknown>): boolean {
  return event.error !== undefined && event.error !== null;
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
