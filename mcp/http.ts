import type { McpEndpointFactory } from '../server/services.ts';
import { requestClientKey } from '../server/limits/client.ts';
import { readRouteBody } from '../server/http/body.ts';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer } from './protocol.ts';
import { mcpTools } from './tools.ts';

/** The transport reads only the method, headers and body of the Request it is given; the address the client used is not its business. */
const ENDPOINT_URL = 'http://localhost/mcp';

/**
 * POST /mcp (API_EXTENSIONS=mcp): the MCP server over streamable HTTP, stateless, each request a
 * whole exchange answered with JSON. The request is read within the calculate route's body limits,
 * its calculations run on the calculate route's path under one budget from its arrival, and the
 * answer goes out through the service's pipeline like any other (request id, log line, metrics,
 * CORS), so the SDK's transport is given a web Request and hands back a web Response.
 */
export const mcpEndpoint: McpEndpointFactory = (services, reportFailure) => {
  const { config } = services;
  const tools = mcpTools(services, reportFailure);
  return async (ctx) => {
    const arrivedAt = performance.now();
    const raw = await readRouteBody(ctx, config.bodyLimitBytes, config.bodyTimeoutMs);
    if (!raw) return;
    const headers = new Headers();
    for (const name of ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id']) {
      const value = ctx.get(name);
      if (value !== '') headers.set(name, value);
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = createMcpServer(tools, { client: requestClientKey(ctx.req, config.trustProxyHops), arrivedAt });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(new Request(ENDPOINT_URL, { method: 'POST', headers, body: new Uint8Array(raw) }));
      ctx.status = response.status;
      response.headers.forEach((value, name) => ctx.set(name, value));
      const answer = Buffer.from(await response.arrayBuffer());
      if (answer.length > 0) ctx.body = answer;
    } finally {
      await server.close();
    }
  };
};
