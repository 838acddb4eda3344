// Starts a command-line tool: its compiled bundle (dist/<tool>/main.js, made by `npm run build`)
// when that is newer than every source it is built from, which starts several times faster; else
// its TypeScript sources under tsx, so that an edited source is never run stale.
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const SOURCES = ['tools', 'engine', 'package-lock.json'];

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { recursive: true })) newest = Math.max(newest, statSync(`${path}/${entry}`).mtimeMs);
  return newest;
}

function bundleIsCurrent(bundle) {
  try {
    const built = statSync(bundle).mtimeMs;
    return SOURCES.every((source) => newestChange(`${root}${source}`) <= built);
  } catch {
    return false;
  }
}

/** Runs the tool named `name` (a folder of tools/). */
export async function runTool(name) {
  const bundle = `${root}dist/${name}/main.js`;
  if (bundleIsCurrent(bundle)) {
    await import(bundle);
    return;
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(`../tools/${name}/main.ts`);
}
