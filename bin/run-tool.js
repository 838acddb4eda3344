// Starts a command-line tool: its compiled bundle (made by `npm run build`) when that is newer than
// every source it is built from, which starts several times faster; else its TypeScript sources
// under tsx, so that an edited source is never run stale.
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const TOOL_SOURCES = ['tools', 'engine', 'package-lock.json'];

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { recursive: true })) newest = Math.max(newest, statSync(`${path}/${entry}`).mtimeMs);
  return newest;
}

function bundleIsCurrent(bundle, sources) {
  try {
    const built = statSync(bundle).mtimeMs;
    return sources.every((source) => newestChange(`${root}${source}`) <= built);
  } catch {
    return false;
  }
}

/** Exit code for a failure of the tool itself, not of what it was asked (sysexits' EX_SOFTWARE). */
export const INTERNAL_ERROR_EXIT = 70;

/**
 * Says that the tool failed unexpectedly, in a few lines, and ends it. Node.js would print the
 * source line it failed on, and in a bundle that line is the whole minified module.
 */
function failedUnexpectedly(name, error) {
  const what = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
  process.stderr.write(`${name}: internal error: ${what.slice(0, 500)}\n${name}: this is a fault in ${name}, not in its input; please report it with the command that caused it\n`);
  process.exit(INTERNAL_ERROR_EXIT);
}

/**
 * Runs the command `name`: `bundle` (a path under the root) when it is current with `sources`, else
 * the TypeScript module `entry`. Anything it throws or leaves unhandled ends it in a few lines.
 */
export async function runBuilt(name, bundle, entry, sources) {
  process.on('uncaughtException', (error) => failedUnexpectedly(name, error));
  process.on('unhandledRejection', (error) => failedUnexpectedly(name, error));
  try {
    if (bundleIsCurrent(`${root}${bundle}`, sources)) {
      await import(pathToFileURL(`${root}${bundle}`).href);
      return;
    }
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(`${root}${entry}`).href);
  } catch (error) {
    failedUnexpectedly(name, error);
  }
}

/** Runs the tool named `name` (a folder of tools/, bundled as dist/<name>/main.js). */
export function runTool(name) {
  return runBuilt(name, `dist/${name}/main.js`, `tools/${name}/main.ts`, TOOL_SOURCES);
}
