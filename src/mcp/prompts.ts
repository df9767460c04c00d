import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { validate } from '../contract/validate.js';
import { toEngramError } from '../core/errors.js';
import { RecallInput, recallFor } from './tools/recall.js';
import type { ToolEnv } from './tools/tool.js';

/**
 * recall_context: a prompt that searches memory for a conversation's topic and hands the
 * compact answer to the model as a user message, ready to continue the conversation with.
 */
export function registerPrompts(mcp: McpServer, env: ToolEnv): void {
  mcp.registerPrompt(
    'recall_context',
    {
      title: 'Recall context for this conversation',
      description:
        'Looks up what engram remembers about a topic for a user (or an agent) and returns it as context.',
      argsSchema: {
        query: z.string().min(1).describe('What the conversation is about.'),
        user_id: z.string().optional().describe('The user the conversation is with.'),
        agent_id: z.string().optional().describe('Or: the agent whose cases and skills to recall.'),
        max_tokens: z.string().optional().describe('Size bound of the context in tokens (default 1500).'),
      },
    },
    async (args) => {
      let input: RecallInput;
      try {
        // the same guard and schema as the recall tool: NUL and depth first, then the shape
        input = validate(
          RecallInput,
          {
            query: args.query,
            ...(args.user_id ? { user_id: args.user_id } : {}),
            ...(args.agent_id ? { agent_id: args.agent_id } : {}),
            ...(args.max_tokens ? { max_tokens: Number(args.max_tokens) } : {}),
            include_profile: !!args.user_id,
          },
          ['arguments'],
        );
      } catch (err) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid params for prompts/get: ${toEngramError(err).message}`,
        );
      }
      try {
        await env.ready;
        const { rendered } = await recallFor(env.engram, env.ctx, input);
        const owner = args.user_id ? `user ${args.user_id}` : `agent ${args.agent_id}`;
        return {
          description: `engram memory of ${owner} about: ${args.query}`,
          messages: [
            {
              role: 'user' as const,
              content: {
                type: 'text' as const,
                text:
                  `Here is what long-term memory (engram) holds about ${owner} relevant to "${args.query}". ` +
                  `Use it where it helps; it may be incomplete or outdated.\n\n${rendered.text}`,
              },
            },
          ],
        };
      } catch (err) {
        const e = toEngramError(err);
        const code = e.status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
        throw new McpError(code, `${e.code}: ${e.message}`);
      }
    },
  );
}
