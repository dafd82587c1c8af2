/**
 * The base of both services' error classes: a contract code with its status and type, and a
 * message that is safe to show to the client. Each service keeps its own code table and factory.
 */

/** Status and type of one contract code. */
export interface CodeEntry {
  status: number;
  type: string;
}

/** Options of a {@link ContractError}. */
export interface ContractErrorOptions {
  /** The offending request field (dotted path), null when none. */
  param?: string | null;
  /** Seconds for a `Retry-After` header. */
  retryAfter?: number;
  cause?: unknown;
}

/** An error carrying its contract code; its message is safe to show to the client. */
export class ContractError<Code extends string> extends Error {
  readonly status: number;
  readonly type: string;
  readonly param: string | null;
  readonly retryAfter?: number;

  constructor(
    readonly code: Code,
    entry: CodeEntry,
    message: string,
    options: ContractErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.status = entry.status;
    this.type = entry.type;
    this.param = options.param ?? null;
    this.retryAfter = options.retryAfter;
  }
}
