import { ZodError } from 'zod';

/**
 * The closed set of engram error codes. Every failure that reaches a caller is an
 * EngramError carrying one of these codes; transports map the code to an HTTP status
 * (see ERROR_TABLE) or an MCP error result. Messages are safe to show: never SQL or stacks.
 */
export const ERROR_TABLE = {
  InvalidParameter: { status: 422, type: 'UnprocessableEntity' },
  BadRequest: { status: 400, type: 'BadRequest' },
  Unauthorized: { status: 401, type: 'Unauthorized' },
  Forbidden: { status: 403, type: 'Forbidden' },
  NotFound: { status: 404, type: 'NotFound' },
  MethodNotAllowed: { status: 405, type: 'MethodNotAllowed' },
  Conflict: { status: 409, type: 'Conflict' },
  Gone: { status: 410, type: 'Gone' },
  PayloadTooLarge: { status: 413, type: 'PayloadTooLarge' },
  UnsupportedMediaType: { status: 415, type: 'UnsupportedMediaType' },
  HeaderTooLarge: { status: 431, type: 'RequestHeaderFieldsTooLarge' },
  RateLimited: { status: 429, type: 'TooManyRequests' },
  InternalError: { status: 500, type: 'InternalServerError' },
  ServiceUnavailable: { status: 503, type: 'ServiceUnavailable' },
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;

/** One entry of a validation failure: path from the body root, message, machine kind. */
export interface FieldIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class EngramError extends Error {
  readonly code: ErrorCode;
  /** Path of the offending field, e.g. `messages[0].timestamp`. */
  readonly param: string | undefined;
  readonly issues: FieldIssue[];
  /** Seconds a client should wait before retrying (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { param?: string; issues?: FieldIssue[]; retryAfter?: number; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'EngramError';
    this.code = code;
    this.param = opts.param;
    this.issues = opts.issues ?? [];
    this.retryAfter = opts.retryAfter;
  }

  get status(): number {
    return ERROR_TABLE[this.code].status;
  }

  get type(): string {
    return ERROR_TABLE[this.code].type;
  }
}

/**
 * The v2 error fields both faces answer with: REST puts them in the body (with
 * request_id), MCP in an isError tool result. Validation failures carry `detail[]`.
 */
export function errorFields(err: EngramError): Record<string, unknown> {
  const body: Record<string, unknown> = {
    code: err.code,
    message: err.message,
    param: err.param ?? null,
    type: err.type,
    status_code: err.status,
  };
  if (err.code === 'InvalidParameter')
    body['detail'] = err.issues.length
      ? err.issues
      : [{ loc: ['body'], msg: err.message, type: 'value_error' }];
  return body;
}

export const invalid = (param: string, message: string, type = 'value_error'): EngramError =>
  new EngramError('InvalidParameter', message, {
    param,
    issues: [{ loc: paramToLoc(param), msg: message, type }],
  });

export const notFound = (message: string): EngramError => new EngramError('NotFound', message);

/** `messages[0].timestamp` -> ['body', 'messages', 0, 'timestamp'] */
export function paramToLoc(param: string): (string | number)[] {
  const loc: (string | number)[] = ['body'];
  for (const part of param.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      loc.push(part);
      continue;
    }
    if (m[1]) loc.push(m[1]);
    for (const idx of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) loc.push(Number(idx[1]));
  }
  return loc;
}

/** ['body', 'messages', 0, 'timestamp'] -> `messages[0].timestamp` */
export function locToParam(loc: readonly (string | number | symbol)[]): string {
  let out = '';
  for (const part of loc) {
    if (part === 'body' && out === '') continue;
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** Errors raised by a database driver when the server cannot be reached. */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof EngramError) return err.code === 'ServiceUnavailable';
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code))
      return true;
    if (code === 'CONNECTION_CLOSED' || code === 'CONNECTION_ENDED' || code === 'CONNECTION_DESTROYED')
      return true;
    if (code === 'CONNECT_TIMEOUT') return true;
    // Postgres SQLSTATE class 08 (connection exception), 57P01-57P03 (admin shutdown, cannot
    // connect now). Not 08P01 (protocol_violation): the server refused a statement it was
    // sent (more than 65,535 bind parameters, say), which no retry mends.
    if ((/^08/.test(code) && code !== '08P01') || /^57P0[1-3]$/.test(code)) return true;
  }
  return false;
}

/**
 * SQLSTATEs of a transaction PostgreSQL rolled back because it conflicted with a concurrent
 * one (deadlock_detected, serialization_failure): nothing of it was written, and running it
 * again is the remedy.
 */
const CONFLICTS: ReadonlySet<unknown> = new Set(['40P01', '40001']);

export const isConflict = (err: unknown): boolean => CONFLICTS.has((err as { code?: unknown } | null)?.code);

/** Tries of a write that conflicted (see retryConflicts). */
export const CONFLICT_TRIES = 4;

/**
 * Runs `write` again while it fails with a conflict (isConflict), CONFLICT_TRIES times in all,
 * after a short, growing, jittered pause. For a write whose effects outside the database
 * (events, a queue's wake-up) come after its commit, so a rolled-back try left none.
 */
export async function retryConflicts<T>(write: () => Promise<T>, tries = CONFLICT_TRIES): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await write();
    } catch (err) {
      if (!isConflict(err) || i >= tries) throw err;
      await new Promise((go) => setTimeout(go, 10 * 2 ** i * (0.5 + Math.random())));
    }
  }
}

/** Any thrown value as an EngramError; unknown failures become a bland InternalError. */
export function toEngramError(err: unknown): EngramError {
  if (err instanceof EngramError) return err;
  if (err instanceof ZodError) return fromZod(err);
  if (isConflict(err))
    return new EngramError(
      'ServiceUnavailable',
      'the write conflicted with a concurrent one and changed nothing; retry',
      {
        retryAfter: 1,
        cause: err,
      },
    );
  if (isUnavailable(err))
    return new EngramError('ServiceUnavailable', 'the database is unreachable; retry with backoff', {
      retryAfter: 5,
      cause: err,
    });
  return new EngramError('InternalError', 'internal error', { cause: err });
}

export function fromZod(err: ZodError, root: (string | number)[] = ['body']): EngramError {
  const issues: FieldIssue[] = err.issues.map((i) => ({
    loc: [...root, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: i.message,
    type: i.code,
  }));
  const first = issues[0];
  const param = first ? locToParam(first.loc.slice(root.length)) : undefined;
  const message = first ? `${param ? `${param}: ` : ''}${first.msg}` : 'invalid request';
  return new EngramError('InvalidParameter', message, { ...(param ? { param } : {}), issues });
}
