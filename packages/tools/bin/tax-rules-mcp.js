#!/usr/bin/env node
// What npx runs: the project's own bin/tax-rules-mcp.js.
import '../../../bin/tax-rules-mcp.js';
