import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { validate } from '../../contract/validate.js';
import { EngramError } from '../../core/errors.js';
import type { Ctx } from '../../engine/memory/deps.js';
import type { Engram } from '../../engram.js';
import { errorResult, toolError } from '../errors.js';

/** What a tool runs with: the engine and the caller's tenant. */
export interface ToolEnv {
  engram: Engram;
  ctx: Ctx;
  /**
   * Set while the engine is still opening (stdio start: the handshake is answered at once);
   * handlers that touch the engine wait for it.
   */
  ready?: Promise<unknown>;
}

export interface ToolOutcome<O> {
  data: O;
  /** Readable text for the model; defaults to the JSON of data. */
  text?: string;
}

/**
 * One MCP tool. `input` and `output` are the contract's zod schemas (the ones REST
 * validates with): the listing advertises their JSON Schema, a call validates its
 * arguments with `input` (errors read exactly like the REST 422), and `output` shapes
 * structuredContent.
 */
export interface ToolDef<I extends z.ZodType, O extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /** Root of validation error locations, as REST reports them (`body`, `query`, `path`). */
  errorRoot?: string;
  run(env: ToolEnv, input: z.output<I>): Promise<ToolOutcome<z.output<O>>>;
}

export type AnyTool = ToolDef<z.ZodType, z.ZodType>;

export const defineTool = <I extends z.ZodType, O extends z.ZodType>(def: ToolDef<I, O>): AnyTool =>
  def as unknown as AnyTool;

const listings = new WeakMap<AnyTool, Tool>();

/** The tools/list entry, computed once per process. */
export function listing(tool: AnyTool): Tool {
  let entry = listings.get(tool);
  if (!entry) {
    const schema = (s: z.ZodType, io: 'input' | 'output') => {
      const { $schema: _drop, ...json } = z.toJSONSchema(s, { io, target: 'draft-7' });
      return json as Tool['inputSchema'];
    };
    entry = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: schema(tool.input, 'input'),
      outputSchema: schema(tool.output, 'output'),
      annotations: { title: tool.title, ...tool.annotations },
    };
    listings.set(tool, entry);
  }
  return entry;
}

/** Runs one call; never throws (every failure is an isError result). */
export async function callTool(tool: AnyTool, env: ToolEnv, args: unknown): Promise<CallToolResult> {
  const start = performance.now();
  const result = await runTool(tool, env, args);
  env.engram.metrics.observeTool(tool.name, !result.isError, (performance.now() - start) / 1000);
  return result;
}

async function runTool(tool: AnyTool, env: ToolEnv, args: unknown): Promise<CallToolResult> {
  try {
    const input = validate(tool.input, args ?? {}, [tool.errorRoot ?? 'body']);
    const { data, text } = await tool.run(env, input);
    // `data` is typed by the output schema; it is not re-validated at run time (a zod pass
    // per call costs more than the rest of the MCP layer). MCP clients check it against
    // the listed outputSchema, as the tests do.
    const structured = data as Record<string, unknown>;
    return {
      content: [{ type: 'text', text: text ?? JSON.stringify(structured) }],
      structuredContent: structured,
    };
  } catch (err) {
    return toolError(err, env.engram.log, tool.name);
  }
}

/** Serves tools/list and tools/call for these tools on a low-level MCP server. */
export function installTools(server: Server, tools: AnyTool[], env: ToolEnv): void {
  const byName = new Map(tools.map((t) => [t.name, t] as const));
  server.registerCapabilities({ tools: { listChanged: false } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(listing) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = byName.get(req.params.name);
    if (!tool)
      return errorResult(new EngramError('NotFound', `no tool named ${req.params.name}`, { param: 'name' }));
    await env.ready;
    return callTool(tool, env, req.params.arguments);
  });
}
