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

/** Runs `bundle` (a path under the root) when it is current with `sources`, else the TypeScript module `entry`. */
export async function runBuilt(bundle, entry, sources) {
  if (bundleIsCurrent(`${root}${bundle}`, sources)) {
    await import(pathToFileURL(`${root}${bundle}`).href);
    return;
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(`${root}${entry}`).href);
}

/** Runs the tool named `name` (a folder of tools/, bundled as dist/<name>/main.js). */
export function runTool(name) {
  return runBuilt(`dist/${name}/main.js`, `tools/${name}/main.ts`, TOOL_SOURCES);
}
