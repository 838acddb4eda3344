import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readStoredYaml, STORED_YAML_FILES, type StoredYamlFiles } from '../../engine/index.ts';

/**
 * The build's parses of the shipped packs' YAML, worked examples included: a file whose text is
 * still what the build parsed loads without being parsed again (every check still runs), and any
 * other file is parsed. None when the project has not been built.
 */
export function buildsStoredYaml(): StoredYamlFiles | undefined {
  const root = projectRoot();
  const stores = Object.values(STORED_YAML_FILES).map((file) => readStoredYaml(join(root, 'dist', file)));
  return stores.some((store) => store !== undefined) ? Object.assign({}, ...stores) : undefined;
}

/** The nearest folder above this module holding package.json: this code runs from tools/lib/ or from a bundle in dist/. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
