import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Config } from '../config.js';
import type { Ctx } from '../engine/memory/deps.js';
import type { Engram } from '../engram.js';
import { VERSION } from '../version.js';
import { registerPrompts } from './prompts.js';
import { installResources, type SubscriptionStore } from './resources.js';
import { toolsFor } from './tools/index.js';
import { installTools, type ToolEnv } from './tools/tool.js';
import { guardParams, withBareErrorMessages } from './wire.js';

/** An engine still opening: the server answers the handshake and lists at once, and waits for it for the rest. */
export interface PendingEngram {
  config: Config;
  opening: Promise<Engram>;
}

const INSTRUCTIONS = `engram is long-term memory. Call recall before answering when earlier conversations, \
the user's preferences or your own past work could matter; call remember with the new turns of a \
conversation (or a short note) so they can be recalled later; rate memories that turned out right \
or wrong. Every memory belongs to an owner: user_id for what users said and are, agent_id for an \
agent's own cases and skills.`;

/**
 * One MCP server for one tenant (every tool, resource and prompt is confined to ctx).
 * Tools and resources are served by engram's own handlers on the SDK's low-level Server,
 * so that argument errors read exactly like REST errors and resource listings paginate;
 * prompts use McpServer's registry. Create one per connection or HTTP session.
 */
export function createMcpServer(
  source: Engram | PendingEngram,
  ctx: Ctx,
  opts: { subscriptions?: SubscriptionStore } = {},
): McpServer {
  const mcp = new McpServer(
    { name: 'engram', title: 'engram memory', version: VERSION },
    { instructions: INSTRUCTIONS },
  );
  const env: ToolEnv =
    'opening' in source
      ? { engram: undefined as unknown as Engram, ctx, ready: undefined }
      : { engram: source, ctx };
  if ('opening' in source)
    env.ready = source.opening.then((e) => {
      env.engram = e;
    });
  env.ready?.catch(() => {}); // the opener reports the failure; handlers see it too
  installTools(mcp.server, toolsFor(source.config.mcpTools), env);
  const stopEvents = installResources(mcp.server, env, opts.subscriptions);
  registerPrompts(mcp, env);
  const previous = mcp.server.onclose;
  mcp.server.onclose = () => {
    stopEvents();
    previous?.();
  };
  const connect = mcp.connect.bind(mcp);
  mcp.connect = async (transport) => {
    await connect(withBareErrorMessages(transport));
    guardParams(transport);
  };
  return mcp;
}
