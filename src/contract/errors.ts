import { z } from 'zod';

/**
 * The error bodies REST answers with (see src/http/errors.ts), as schemas for the OpenAPI
 * document: one per family of routes.
 */
export const ValidationIssue = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});

/** v2 memory routes and everything else. */
export const ErrorBody = z.object({
  request_id: z.string(),
  code: z.string().describe('Machine-readable error code, e.g. InvalidParameter, NotFound.'),
  message: z.string(),
  param: z.string().nullable().describe('The offending parameter, when one is to blame.'),
  type: z.string().describe('HTTP status text class: UnprocessableEntity, NotFound, ...'),
  status_code: z.number().int(),
  detail: z.array(ValidationIssue).optional().describe('Validation failures (422 only).'),
});

/** v2 tasks routes. */
export const TaskErrorBody = z.object({
  request_id: z.string(),
  error: z.object({ code: z.string(), message: z.string(), type: z.string() }),
});

/** v1 routes. */
export const V1ErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  request_id: z.string(),
  path: z.string().describe('The request path.'),
  timestamp: z.string().describe('When the error was answered (ISO 8601).'),
});
