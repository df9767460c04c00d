import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodError } from 'zod';
import { type EngramError, errorFields, fromZod, toEngramError } from '../core/errors.js';
import type { Logger } from '../core/log.js';

/**
 * Failures of a tool call as MCP tool results (`isError: true`) rather than protocol
 * errors, so the model sees them. The text is the REST error body minus request_id:
 * the same `code`, `message`, `param`, `type`, `status_code` (and `detail[]` for
 * validation failures) that the REST API answers for the same input.
 */
export function errorBody(e: EngramError): Record<string, unknown> {
  return e.retryAfter === undefined ? errorFields(e) : { ...errorFields(e), retry_after: e.retryAfter };
}

export function errorResult(e: EngramError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: errorBody(e) }) }] };
}

/** Any thrown value as a tool error result; unexpected failures are logged, never shown. */
export function toolError(err: unknown, log: Logger, tool: string): CallToolResult {
  const e = toEngramError(err);
  if (e.status >= 500) log.error('mcp tool failed', { tool, err });
  return errorResult(e);
}

/** A zod failure of tool arguments, reported like the REST body (or query) validation. */
export function invalidArguments(err: ZodError, root: (string | number)[] = ['body']): CallToolResult {
  return errorResult(fromZod(err, root));
}
