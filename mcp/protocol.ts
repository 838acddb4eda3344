import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpCaller, McpTool } from './tools.ts';
import projectPackage from '../package.json' with { type: 'json' };

/** What the server says of itself when a client connects. */
const INSTRUCTIONS =
  'Tax calculators over versioned rule packs: list_calculators names them, describe_calculator gives the facts each asks for (with questions, help and examples), ' +
  'calculate_<calculator> runs one. Money is integer cents. Every result carries its calculation trace with the legal sources of each step, which an answer should cite.';

/**
 * An MCP server offering `tools` to one caller. The SDK's low-level Server, not its McpServer: the
 * tools' input schemas are the packs' JSON Schemas, which McpServer would want as zod schemas; the
 * tools check their arguments themselves, as the API checks a request. (The SDK marks Server as
 * being for such advanced uses.)
 */
export function createMcpServer(tools: readonly McpTool[], caller: McpCaller): Server {
  const server = new Server({ name: 'tax-rules-api', title: 'Australian tax calculators', version: projectPackage.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema, annotations: { readOnlyHint: true, openWorldHint: false } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, 'No tool has this name; tools/list names them.');
    const answer = await tool.call(request.params.arguments ?? {}, caller);
    return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured, ...(answer.isError ? { isError: true } : {}) };
  });
  return server;
}
