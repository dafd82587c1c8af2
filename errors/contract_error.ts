/**
 * The part of error handling both services share: the error class carrying a contract code, the
 * one renderer (`onError` and the WebSocket frame loop use it alike), the mapping of zod issues,
 * and the one field-path style (`messages[0].content`, `options.foo`).
 *
 * Each service's error file keeps only its code table and the map of its domain errors (engine,
 * runtime) to codes; everything thrown that is neither a contract error nor a domain error is
 * "unexpected": it is logged and answered with a fixed `internal_error` message.
 */
import type { z } from "zod";

/** Status and type of one contract code. */
export interface CodeEntry {
  status: number;
  type: string;
}

/** Options of a {@link ContractError}. */
export interface ContractErrorOptions {
  /** The offending request field ({@link fieldPath} style), null when none. */
  param?: string | null;
  /** Seconds for a `Retry-After` header. */
  retryAfter?: number;
  /** Headers a protocol asks to be sent with the refusal (RFC 6455's `Sec-WebSocket-Version`). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * An error carrying its contract code; its message is safe to show to the client.
 *
 * Not built by `Error`'s constructor: in Deno that costs 2–4 µs per error whatever
 * `Error.stackTraceLimit` says, and a loaded server makes thousands a second (a 503 per refused
 * frame, a 400 per invalid one: 6–8 % of its main thread, BENCHMARKS.md "WebSocket load"). A
 * contract error is expected and answered, never logged with a stack (only what nobody expected
 * is, see log_unexpected.ts), so it has none. It is still an `Error` by its prototype chain:
 * `instanceof Error` holds, so Hono's onError and every `catch` treat it as one.
 */
// The interface gives the class Error's type; the prototype chain set below makes it one.
export interface ContractError<Code extends string> extends Error {}
export class ContractError<Code extends string> {
  name = "ContractError";
  readonly message: string;
  readonly cause?: unknown;
  readonly status: number;
  readonly type: string;
  readonly param: string | null;
  readonly retryAfter?: number;
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: Code,
    entry: CodeEntry,
    message: string,
    options: ContractErrorOptions = {},
  ) {
    this.message = message;
    if (options.cause !== undefined) this.cause = options.cause;
    this.status = entry.status;
    this.type = entry.type;
    this.param = options.param ?? null;
    this.retryAfter = options.retryAfter;
    if (options.headers) this.headers = options.headers;
  }
}
Object.setPrototypeOf(ContractError.prototype, Error.prototype);

/** The `{error:{code,message,type,param}}` body both services send. */
export interface ContractErrorBody<Code extends string = string> {
  error: { code: Code; message: string; type: string; param: string | null };
}

/** What a service answers for something thrown: status, body, headers, and whether to log it. */
export interface RenderedError<Code extends string> {
  error: ContractError<Code>;
  status: number;
  body: ContractErrorBody<Code>;
  headers: Record<string, string>;
  /** True when nobody expected the error: the caller logs it (`log_unexpected.ts`). */
  unexpected: boolean;
}

/** The class of one service's errors: status and type come from the service's code table. */
export type ServiceErrorClass<Code extends string> = new (
  code: Code,
  message: string,
  options?: ContractErrorOptions,
) => ContractError<Code>;

/**
 * Makes the error class of one service from its name and code table.
 *
 * @example
 * ```ts
 * export class InferenceError extends serviceErrorClass("InferenceError", INFERENCE_ERROR_CODES) {}
 * ```
 */
export function serviceErrorClass<Code extends string>(
  className: string,
  codes: Record<Code, CodeEntry>,
): ServiceErrorClass<Code> {
  return class extends ContractError<Code> {
    override name = className;

    constructor(code: Code, message: string, options: ContractErrorOptions = {}) {
      super(code, codes[code], message, options);
    }
  };
}

/** One service's error vocabulary, from which {@link createErrorRenderer} builds its renderer. */
export interface ServiceErrorTable<Code extends string> {
  /** The service's own error class ({@link serviceErrorClass}). */
  errorClass: ServiceErrorClass<Code>;
  /** Maps an error of a lower layer (engines, runtime) to a contract error; undefined if foreign. */
  fromDomain(thrown: unknown): ContractError<Code> | undefined;
  /** Hono's built-in 413 (body limit) in the service's words. */
  tooLarge: { code: Code; message: string; param?: string };
  /** The service's own reading of one zod issue; undefined falls back to the shared mapping. */
  fromIssue?(issue: z.core.$ZodIssue, param: string | null): ContractError<Code> | undefined;
  /** The code of a generic validation failure (and of malformed JSON). */
  invalidCode: Code;
  /** The code of an unexpected error. */
  internalCode: Code;
}

/** A service's factory, renderer and zod mapping. */
export interface ErrorRenderer<Code extends string> {
  /** Makes a contract error of the service (its one error factory). */
  make(code: Code, message: string, options?: ContractErrorOptions): ContractError<Code>;
  /** Renders anything thrown while serving (HTTP or a WebSocket frame). */
  render(thrown: unknown): RenderedError<Code>;
  /** Maps the first zod issue of a request to its contract error. */
  errorFromIssues(issues: readonly z.core.$ZodIssue[]): ContractError<Code>;
  /**
   * `value` as `schema` reads it.
   *
   * @throws {ContractError} of the first issue when `value` does not fit.
   */
  validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S>;
  /** The body of a contract error. */
  body(error: ContractError<Code>): ContractErrorBody<Code>;
  /** The error builders of the JSON body validator (`middleware/json_body.ts`). */
  jsonBodyErrors: {
    invalid(issues: readonly z.core.$ZodIssue[]): ContractError<Code>;
    notJson(): ContractError<Code>;
    notUtf8(): ContractError<Code>;
    /** A body sent with a Content-Encoding (`middleware/content_coding.ts`). */
    compressed(coding: string): ContractError<Code>;
  };
}

/**
 * Builds a service's renderer from its table.
 *
 * @example
 * ```ts
 * const renderer = createErrorRenderer({ errorClass: InferenceError, invalidCode: "invalid_request", … });
 * app.onError((thrown, c) => {
 *   const rendered = renderer.render(thrown);
 *   if (rendered.unexpected) logUnexpected(log, c.get("requestId"), thrown);
 *   return c.json(rendered.body, rendered.status as 400, rendered.headers);
 * });
 * ```
 */
export function createErrorRenderer<Code extends string>(
  table: ServiceErrorTable<Code>,
): ErrorRenderer<Code> {
  function make(code: Code, message: string, options?: ContractErrorOptions) {
    return new table.errorClass(code, message, options);
  }

  function body(error: ContractError<Code>): ContractErrorBody<Code> {
    return {
      error: { code: error.code, message: error.message, type: error.type, param: error.param },
    };
  }

  function classify(thrown: unknown): { error: ContractError<Code>; unexpected: boolean } {
    if (thrown instanceof table.errorClass) return { error: thrown, unexpected: false };
    const domain = table.fromDomain(thrown);
    if (domain) return { error: domain, unexpected: false };
    const status = (thrown as { status?: unknown } | null)?.status;
    if (status === 413) {
      const { code, message, param } = table.tooLarge;
      return { error: make(code, message, { param }), unexpected: false };
    }
    if (status === 400) {
      return {
        error: make(table.invalidCode, "malformed JSON in request body"),
        unexpected: false,
      };
    }
    return { error: make(table.internalCode, "internal error"), unexpected: true };
  }

  function render(thrown: unknown): RenderedError<Code> {
    const { error, unexpected } = classify(thrown);
    const headers: Record<string, string> = { ...error.headers };
    if (error.retryAfter !== undefined) headers["Retry-After"] = String(error.retryAfter);
    // RFC 9110: a 401 names the scheme that would do (both services take a bearer token).
    if (error.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="tolk"';
    return { error, status: error.status, body: body(error), headers, unexpected };
  }

  function errorFromIssues(issues: readonly z.core.$ZodIssue[]): ContractError<Code> {
    const issue = issues[0];
    if (!issue) return make(table.invalidCode, "invalid request body");
    if (issue.code === "unrecognized_keys") {
      const param = fieldPath([...issue.path, issue.keys[0]]);
      return make(table.invalidCode, `unknown field "${param}"`, { param });
    }
    const param = fieldPath(issue.path);
    const own = table.fromIssue?.(issue, param);
    if (own) return own;
    const types = expectedTypes(issue);
    if (types) {
      const { expected, received } = types;
      if (received === "undefined" && param) {
        return make(table.invalidCode, `${param} is required`, { param });
      }
      const message = `${param ?? "request body"}: expected ${expected.join(" or ")}, ` +
        `received ${received}`;
      return make(table.invalidCode, message, { param });
    }
    const bound = boundMessage(issue);
    if (bound) return make(table.invalidCode, `${param ?? "request body"} ${bound}`, { param });
    // A schema's own message that names its field ("texts must hold at least one item") is
    // whole; prefixing the field again would read "texts: texts must …".
    const named = param !== null && issue.message.startsWith(`${param} `);
    const message = named ? issue.message : `${param ?? "request body"}: ${issue.message}`;
    return make(table.invalidCode, message, { param });
  }

  // Through Standard Schema's `validate`: zod answers it with the same issues but without
  // building a ZodError (an Error: ~8 of the ~10 µs of a failing `safeParse` read for its issues).
  function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
    const result = schema["~standard"].validate(value);
    // Only a schema with async checks answers a promise; parse refuses it as safeParse did.
    if (result instanceof Promise) return schema.parse(value);
    if (result.issues) throw errorFromIssues(result.issues as readonly z.core.$ZodIssue[]);
    return result.value;
  }

  const jsonBodyErrors = {
    invalid: errorFromIssues,
    notJson: () =>
      make(table.invalidCode, "the body must be JSON with Content-Type: application/json"),
    notUtf8: () => make(table.invalidCode, "the body is not valid UTF-8"),
    compressed: (coding: string) =>
      make(
        table.invalidCode,
        `a body with Content-Encoding ${coding} is not read; send it uncompressed`,
      ),
  };

  return { make, render, errorFromIssues, validate, body, jsonBodyErrors };
}

/**
 * Words for a string or list outside its bounds, in place of zod's own ("Too small: expected
 * string to have >=1 characters"); undefined for other issues and for a schema's own message.
 * The command line's flags read the same (cli/flags.ts).
 */
export function boundMessage(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code !== "too_small" && issue.code !== "too_big") return undefined;
  if (!/^Too (?:small|big):/.test(issue.message)) return undefined;
  const unit = issue.origin === "string"
    ? "characters"
    : issue.origin === "array" || issue.origin === "set"
    ? "items"
    : undefined;
  if (unit === undefined) return undefined;
  const limit = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
  if (issue.code === "too_small" && limit === 1) return "must not be empty";
  return `must have at ${issue.code === "too_small" ? "least" : "most"} ${limit} ${unit}`;
}

/** zod's words for a value of the wrong type: "Invalid input: expected string, received number". */
const RECEIVED = /received (\w+)$/;

/**
 * What a value of the wrong type should have been and what it was, for an `invalid_type` issue or
 * a union whose every branch failed on the type (DeepL's `text`: a string or an array); undefined
 * for any other issue. zod leaves the input out of its issues (unless asked to report it, which
 * would copy request bodies into errors), so the received type is read from its message: a missing
 * field reads "received undefined".
 */
function expectedTypes(
  issue: z.core.$ZodIssue,
): { expected: string[]; received: string } | undefined {
  if (issue.code === "invalid_type") {
    const received = RECEIVED.exec(issue.message)?.[1];
    return received ? { expected: [issue.expected], received } : undefined;
  }
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return undefined;
  const branches = issue.errors.map((errors) =>
    errors.length === 1 && errors[0].path.length === 0 ? expectedTypes(errors[0]) : undefined
  );
  if (branches.some((branch) => branch === undefined)) return undefined;
  const received = branches[0]!.received;
  if (branches.some((branch) => branch!.received !== received)) return undefined;
  return { expected: branches.flatMap((branch) => branch!.expected), received };
}

/**
 * The one field-path style of both services: `messages[0].content`, `options.foo`; null for the
 * body itself.
 */
export function fieldPath(path: readonly PropertyKey[]): string | null {
  let out = "";
  for (const segment of path) {
    out += typeof segment === "number" ? `[${segment}]` : `${out ? "." : ""}${String(segment)}`;
  }
  return out || null;
}
