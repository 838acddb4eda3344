#!/usr/bin/env node
// Plain JavaScript so that it runs under node directly (see run-tool.js). The MCP server over stdio
// is bundled with the service (dist/mcp-stdio.js), whose code it shares.
import { runBuilt } from './run-tool.js';

await runBuilt('tax-rules-mcp', 'dist/mcp-stdio.js', 'mcp/stdio.ts', ['mcp', 'server', 'engine', 'tools', 'docs-site', 'package-lock.json']);
