import { fileURLToPath } from 'node:url';
import { STORED_YAML_FILES } from '../engine/index.ts';

// Worked out from this module's folder, which is server/ in the sources and dist/ in the build
// (the bundle is one file there): both sit one folder below the project root. Every path the
// service finds from its own location is here, so that no module's folder decides it.

export const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
export const PACKS_DIR = fileURLToPath(new URL('../rulepacks/', import.meta.url));
export const DOCS_CONTENT = fileURLToPath(new URL('../docs-site/content/', import.meta.url));
export const DOCS_NAVIGATION = fileURLToPath(new URL('../docs-site/navigation.yaml', import.meta.url));
/** Where the build stores its parses of the shipped packs' YAML that a service reads (see engine/load/stored-yaml.ts). */
export const STORED_YAML = fileURLToPath(new URL(`../dist/${STORED_YAML_FILES.served}`, import.meta.url));
/** Where it stores its parses of the packs' worked examples, which only the tools read. */
export const STORED_EXAMPLES_YAML = fileURLToPath(new URL(`../dist/${STORED_YAML_FILES.examples}`, import.meta.url));
/** Where the build stores the compiled documentation (see scripts/build.js). */
export const DOCS_SNAPSHOT = fileURLToPath(new URL('../dist/docs-snapshot.json', import.meta.url));
/** The site's icon, kept with the sources and read from there by the build too. */
export const FAVICON_FILE = new URL('../server/assets/favicon.ico', import.meta.url);
