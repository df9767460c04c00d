import type { Context } from 'hono';
import { type EngramError, errorFields } from '../core/errors.js';

/**
 * Error bodies, one shape per family of routes (spec "Errors"):
 * - v2 memory and everything else: flat `code`, `message`, `param`, `type`, `status_code`,
 *   plus the 422 validation `detail[]` (`loc`, `msg`, `type`) on validation failures;
 * - v2 tasks and tag replace (except 422): an `error` object with `code`, `message`, `type`;
 * - v1: `code`, `message`, `request_id`, `path`, `timestamp`.
 * Every body carries `request_id`. No SQL, stack or driver text ever leaves here.
 */
export type ErrorStyle = 'memory' | 'tasks' | 'v1';

/** Tag replace answers its non-validation errors (404, 409) in the task routes' `error` object. */
const TAG_REPLACE_RE = /^\/api\/v2\/knowledge_bases\/[^/]+\/documents\/[^/]+\/topics\/[^/]+\/tag\/replace$/;

export function styleForPath(path: string, err?: EngramError): ErrorStyle {
  if (path.startsWith('/api/v2/tasks')) return 'tasks';
  if (TAG_REPLACE_RE.test(path) && err?.code !== 'InvalidParameter') return 'tasks';
  if (path.startsWith('/api/v1/')) return 'v1';
  return 'memory';
}

export function errorBody(err: EngramError, style: ErrorStyle, requestId: string, path: string): object {
  if (style === 'tasks')
    return { request_id: requestId, error: { code: err.code, message: err.message, type: err.type } };
  if (style === 'v1')
    return {
      code: err.code,
      message: err.message,
      request_id: requestId,
      path,
      timestamp: new Date().toISOString(),
    };
  return { request_id: requestId, ...errorFields(err) };
}

export function sendError(c: Context, err: EngramError): Response {
  const requestId = c.get('requestId') as string;
  if (err.retryAfter !== undefined) c.header('Retry-After', String(err.retryAfter));
  const body = errorBody(err, styleForPath(c.req.path, err), requestId, c.req.path);
  return c.json(body, err.status as 400);
}
