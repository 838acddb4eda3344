import { isAbsolute, relative, sep } from 'node:path';

/** The engine shows files outside the current folder as absolute paths; a reviewer wants them relative. */
export function displayPath(file: string): string {
  return isAbsolute(file) ? relative(process.cwd(), file) || '.' : file;
}

/** True when `dir` is `root` or inside it (both absolute). */
export function isWithin(dir: string, root: string): boolean {
  return dir === root || dir.startsWith(root.endsWith(sep) ? root : root + sep);
}
