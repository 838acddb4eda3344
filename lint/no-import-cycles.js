// The project's own lint rule: no module reaches itself through its imports, type-only imports
// included. import-x/no-cycle skips `import type` on purpose (it has no effect at run time), but a
// cycle through types is still two modules that each need the other to be read, the design cycle
// the boundaries forbid; so this rule follows every import, export-from and literal import().
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The resolved imports of each module read from disk, with the modification time they were read at. */
const importsRead = new Map();

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The file a relative specifier names (a `.js` specifier may name its `.ts` source); packages are outside the graph. */
function resolveSpecifier(importer, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(importer), specifier);
  if (isFile(target)) return target;
  const source = target.replace(/\.js$/, '.ts');
  return source !== target && isFile(source) ? source : undefined;
}

/** The project modules a module on disk imports; JSON and other data import nothing. */
function importsOf(path) {
  if (!/\.[cm]?[jt]s$/.test(path)) return [];
  const modified = statSync(path).mtimeMs;
  const known = importsRead.get(path);
  if (known?.modified === modified) return known.targets;
  const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
  const targets = importedFiles.map((file) => resolveSpecifier(path, file.fileName)).filter((target) => target !== undefined);
  importsRead.set(path, { modified, targets });
  return targets;
}

/**
 * The shortest chain of imports from `start` back to `home` (start first, home not included), or
 * undefined. `deadEnds` holds modules already known not to lead back to `home`; a search that finds
 * no way back adds every module it saw, so the imports of one module are searched in about one pass.
 */
function routeBack(start, home, deadEnds) {
  if (deadEnds.has(start)) return undefined;
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    for (const next of importsOf(current)) {
      if (next === home) {
        const route = [];
        for (let step = current; step !== undefined; step = cameFrom.get(step)) route.unshift(step);
        return route;
      }
      if (!cameFrom.has(next) && !deadEnds.has(next)) {
        cameFrom.set(next, current);
        queue.push(next);
      }
    }
  }
  for (const seen of cameFrom.keys()) deadEnds.add(seen);
  return undefined;
}

export const noImportCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid a module from reaching itself through its imports, type-only imports included.' },
    schema: [],
    messages: { cycle: 'Import cycle: {{route}}. Move what they share into the module that owns it.' },
  },
  create(context) {
    const home = context.physicalFilename;
    if (!isAbsolute(home)) return {};
    const deadEnds = new Set();
    // The module being linted is read from its syntax tree, so text linted under a pretended path counts.
    const check = (node, source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolveSpecifier(home, source.value);
      if (target === undefined || target === home) return;
      const route = routeBack(target, home, deadEnds);
      if (route === undefined) return;
      context.report({ node, messageId: 'cycle', data: { route: [home, ...route, home].map((path) => relative(context.cwd, path)).join(' → ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

/** The plugin that carries the project's own rules. */
export default { meta: { name: 'tax-rules-api' }, rules: { 'no-import-cycles': noImportCycles } };
