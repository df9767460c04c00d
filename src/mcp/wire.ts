import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ClientRequestSchema, ErrorCode, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/**
 * What engram puts on the MCP wire around the SDK's protocol handling, for every transport
 * (stdio, control socket, Streamable HTTP): errors as JSON-RPC clients expect them.
 */

const SDK_PREFIX = /^MCP error -?\d+: /;

/**
 * The SDK's McpError (thrown by engram's resource and prompt handlers and by the SDK itself)
 * carries "MCP error <code>: " in its message, and the SDK sends that message as the
 * JSON-RPC error message; clients add the same prefix again when they show it. Every
 * error response leaves through here with the bare message.
 */
export function withBareErrorMessages(transport: Transport): Transport {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('error' in message && SDK_PREFIX.test(message.error.message))
      message = {
        ...message,
        error: { ...message.error, message: message.error.message.replace(SDK_PREFIX, '') },
      };
    return send(message, options);
  };
  return transport;
}

/** The SDK's schema of each client request, by method. */
const REQUEST_SCHEMAS = new Map<string, z.ZodType>(
  (ClientRequestSchema.options as unknown as { shape: { method: { value: string } } }[]).map((o) => [
    o.shape.method.value,
    o as unknown as z.ZodType,
  ]),
);

/**
 * The SDK parses a request's params only inside its handler call, and a failure there
 * (tools/call whose `arguments` is not an object, prompts/get with a non-string argument)
 * leaves as -32603 Internal error. Requests of a known method whose params do not fit are
 * answered here with -32602 Invalid params, naming the offending field. Call after connect
 * (the SDK sets onmessage then).
 */
export function guardParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message)) {
      const schema = REQUEST_SCHEMAS.get(message.method);
      const parsed = schema?.safeParse({ method: message.method, params: message.params });
      if (parsed && !parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.filter((p) => p !== 'params').join('.') || 'params';
        void transport
          .send({
            jsonrpc: '2.0',
            id: message.id,
            error: {
              code: ErrorCode.InvalidParams,
              message: `Invalid params for ${message.method}: ${where}: ${issue?.message ?? 'invalid'}`,
            },
          })
          .catch(() => {});
        return;
      }
    }
    deliver(message, extra);
  };
}
