import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { validate } from '../../contract/validate.js';
import type { HttpEnv } from '../app.js';
import { parseBody, parseQuery } from '../body.js';

/**
 * One REST operation: its path, the contract schemas of its input and of its answer's
 * `data`, and its handler. Mounting an operation records it, so the OpenAPI document
 * (/openapi.json) is derived from the same schemas the route validates with.
 */
export interface OperationSpec<
  B extends z.ZodType,
  Q extends z.ZodType,
  P extends z.ZodType,
  D extends z.ZodType,
> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Hono path syntax (`/api/v2/tasks/:task_id`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  body?: B;
  /**
   * Also accept multipart/form-data: turns the form into the raw body, which `body` then
   * validates like a JSON one.
   */
  form?: (form: FormData) => Promise<unknown>;
  query?: Q;
  params?: P;
  /** Schema of the answer's `data`. */
  data: D;
  /** Success statuses (default [200]). */
  statuses?: number[];
  /** The whole success body, for an operation that does not answer `request_id` + `data`. */
  envelope?: z.ZodType;
}

export interface OperationInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

export type AnyOperation = OperationSpec<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;

const OPERATIONS = new Map<string, AnyOperation>();

export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** The recorded operation for a mounted route, if it was mounted with `operation`. */
export const findOperation = (method: string, path: string): AnyOperation | undefined =>
  OPERATIONS.get(operationKey(method, path));

/** Records an operation whose route is mounted by hand (its own envelope or body handling). */
export function describeOperation(spec: AnyOperation): void {
  OPERATIONS.set(operationKey(spec.method, spec.path), spec);
}

/**
 * Mounts an operation: validates path parameters, query and body with its schemas (422 in
 * the documented envelope), runs the handler and wraps its data in `request_id` + `data`.
 */
export function operation<
  B extends z.ZodType = z.ZodNever,
  Q extends z.ZodType = z.ZodNever,
  P extends z.ZodType = z.ZodNever,
  D extends z.ZodType = z.ZodType,
>(
  app: Hono<HttpEnv>,
  spec: OperationSpec<B, Q, P, D>,
  handler: (
    c: Context<HttpEnv>,
    input: OperationInput<z.output<B>, z.output<Q>, z.output<P>>,
  ) => Promise<{ data: z.output<D>; status?: number }>,
): void {
  OPERATIONS.set(operationKey(spec.method, spec.path), spec as unknown as AnyOperation);
  app.on(spec.method.toUpperCase(), spec.path, async (c) => {
    const input = {
      params: (spec.params ? validate(spec.params, c.req.param(), ['path']) : undefined) as z.output<P>,
      query: (spec.query ? parseQuery(c, spec.query) : undefined) as z.output<Q>,
      body: (spec.body ? await parseBody(c, spec.body, spec.form) : undefined) as z.output<B>,
    };
    const { data, status } = await handler(c, input);
    return c.json({ request_id: c.get('requestId'), data }, (status ?? 200) as 200);
  });
}
