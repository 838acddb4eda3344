/**
 * tax-rules-mcp: the MCP server over stdio, for an assistant that starts it as a process of its own.
 * It serves what `npm start` would serve with the same settings (packs, TAX_YEARS, DEFAULT_TAX_YEAR,
 * limits, CALC_ISOLATION, REDIS_URL), from the engine in this process; no port is opened. Standard
 * output carries the protocol, so everything it reports goes to standard error, one JSON line each.
 * Run through bin/tax-rules-mcp.js (`npx tax-rules-mcp`).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServices } from '../server/services.ts';
import { BootFailure, loadDocs, storedYaml } from '../server/process/boot.ts';
import { PACKS_DIR } from '../server/project-paths.ts';
import { createInlineRunner } from '../server/calculate/inline-runner.ts';
import { startWorkerPool } from '../server/calculate/worker-pool.ts';
import { ConfigError, readConfig } from '../server/process/config.ts';
import { configuredRateLimiter } from '../server/limits/rate-limit.ts';
import { describeError } from '../server/process/logger.ts';
import { loadServed } from '../server/process/served-catalog.ts';
import { createMcpServer } from './protocol.ts';
import { mcpTools } from './tools.ts';

/** The rate limit's client key of the one client a stdio server has. */
const STDIO_CLIENT = 'stdio';

export const HELP = `Usage: tax-rules-mcp

Serves the tax calculators to an AI assistant over the Model Context Protocol, on standard input and
output: configure it in an MCP client as a command, not run it by hand. It serves what npm start
serves with the same settings (TAX_YEARS, DEFAULT_TAX_YEAR, RULEPACKS_DIR, RATE_LIMIT_MAX, ...),
without opening a port. Messages about the server go to standard error.

Tools: list_calculators, describe_calculator, calculate_<calculator>, compare_tax_years_<calculator>,
search_docs, read_doc.
`;

function report(line: object): void {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
}

async function main(argv: readonly string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  if (argv.length > 0) {
    process.stderr.write(`tax-rules-mcp: it takes no arguments (settings are environment variables); see tax-rules-mcp --help\n`);
    process.exitCode = 2;
    return;
  }
  const config = readConfig(process.env);
  const packPaths = config.packPaths.length > 0 ? config.packPaths : [PACKS_DIR];
  const { catalog, taxYears, defaultTaxYear } = loadServed(packPaths, config);
  const docs = await loadDocs(catalog);
  const runner =
    config.calcIsolation === 'worker'
      ? await startWorkerPool({ size: config.calcConcurrency, packPaths, taxYears, storedYaml: storedYaml() })
      : createInlineRunner(config.calcConcurrency);
  const rateLimiter = await configuredRateLimiter(config, { inFleet: false, report });
  const reportFailure = (error: unknown) => report({ level: 'error', event: 'unexpected-failure', ...describeError(error) });
  const services = createServices({ catalog, defaultTaxYear, runner, rateLimiter, config, docs: docs?.site });
  const server = createMcpServer(mcpTools(services, reportFailure), { client: STDIO_CLIENT });
  // The client ends the server by closing its standard input.
  process.stdin.once('end', () => void server.close());
  server.onclose = () => {
    void runner.close().finally(() => process.exit(0));
  };
  await server.connect(new StdioServerTransport());
  report({ event: 'serving', transport: 'stdio', calculators: catalog.plans.length, taxYears, defaultTaxYear });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) report({ event: 'invalid-configuration', problems: error.problems });
  else if (error instanceof BootFailure) report({ event: 'packs-have-problems', problems: error.problems });
  else report({ event: 'cannot-start', ...describeError(error) });
  process.exitCode = 1;
});
