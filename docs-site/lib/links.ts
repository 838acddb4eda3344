import { posix } from 'node:path';
import { docsPathOfContentFile, isDocsPath } from './paths.ts';

/** What a link in a page points to, as far as the docs site is concerned. */
export type LinkTarget =
  /** Left exactly as written: external URLs, `#anchors`, links to the service's own `/api` routes. */
  | { readonly kind: 'untouched' }
  /** A documentation page; `url` is its docs path plus any `?query` or `#anchor` of the link. */
  | { readonly kind: 'page'; readonly path: string; readonly url: string }
  /** Not a link to any page, for the reason given. */
  | { readonly kind: 'invalid'; readonly reason: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Classifies a link found in a page and, for links between pages, works out the docs path.
 * Relative links are resolved against the linking file (`../concepts/traces.md#x` from
 * `guides/a.md` → `/concepts/traces#x`) and may name the `.md` file, a folder, or a page without
 * its extension. Root-relative links outside `/api` are docs paths already and are kept, but still
 * checked by the caller, so every link between pages is verified at build time.
 *
 * @param url the link destination as parsed
 * @param fromFile the linking page's path relative to the content folder (`guides/a.md`)
 */
export function resolveLink(url: string, fromFile: string): LinkTarget {
  if (url === '' || url.startsWith('#') || url.startsWith('//') || SCHEME.test(url)) return { kind: 'untouched' };

  const split = url.search(/[?#]/);
  const target = split === -1 ? url : url.slice(0, split);
  const suffix = split === -1 ? '' : url.slice(split);
  if (target === '') return { kind: 'untouched' };

  if (target.startsWith('/')) {
    if (target === '/api' || target.startsWith('/api/')) return { kind: 'untouched' };
    const path = target.length > 1 ? target.replace(/\/$/, '') : target;
    return isDocsPath(path) ? { kind: 'page', path, url } : { kind: 'invalid', reason: 'is not a valid docs path' };
  }

  const file = posix.normalize(posix.join(posix.dirname(fromFile), target));
  if (file === '..' || file.startsWith('../')) return { kind: 'invalid', reason: 'points outside the content folder' };

  const extension = posix.extname(file);
  if (extension !== '' && extension !== '.md') {
    return { kind: 'invalid', reason: 'points to a file that is not a documentation page' };
  }
  const folder = file.replace(/\/$/, '');
  const path = extension === '.md' ? docsPathOfContentFile(file) : `/${folder === '.' ? '' : folder}`;
  if (!isDocsPath(path)) return { kind: 'invalid', reason: 'does not lead to a valid docs path' };
  return { kind: 'page', path, url: path + suffix };
}
