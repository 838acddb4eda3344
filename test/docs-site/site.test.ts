import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildDocsSite } from '../../docs-site/index.ts';
import { buildError, buildFixtureSite, fixture, fixtureBuildError, pageText } from './helpers.ts';

const pages = suite('served pages');
const site = buildFixtureSite();

pages('a page has the contract shape, with its source relative to the project root', () => {
  assert.equal(Object.keys(site.page('/guides/read-a-trace') ?? {}), ['frontmatter', 'markdown', 'path', 'slugs', 'source']);
  const page = site.page('/guides/read-a-trace');
  assert.equal(page?.frontmatter, {
    description: 'Follow a calculation step by step through its trace.',
    status: 'published',
    title: 'Read a trace',
  });
  assert.is(page?.path, '/guides/read-a-trace');
  assert.equal(page?.slugs, ['guides', 'read-a-trace']);
  assert.is(page?.source, 'test/fixtures/docs/site/content/guides/read-a-trace.md');
});

pages('an index.md is served at its folder path', () => {
  const page = site.page('/guides');
  assert.is(page?.source, 'test/fixtures/docs/site/content/guides/index.md');
  assert.equal(page?.slugs, ['guides']);
});

pages('every published page is listed, and markdown(path) is exactly page(path).markdown', () => {
  assert.equal(site.paths(), [
    '/concepts',
    '/concepts/traces',
    '/guides',
    '/guides/read-a-trace',
    '/quickstart',
    '/reference',
    '/reference/glossary',
    '/reference/limits',
  ]);
  for (const path of site.paths()) assert.is(site.markdown(path), site.page(path)?.markdown, path);
});

pages('unknown and hostile paths are simply not found', () => {
  for (const path of ['/nope', '/guides/', 'guides', '', '__proto__', 'constructor', '/__proto__', 'toString', '/guides/read-a-trace.md']) {
    assert.is(site.page(path), undefined, path);
    assert.is(site.markdown(path), undefined, path);
  }
});

pages('served objects are frozen so one request cannot change what the next one reads', () => {
  const page = site.page('/quickstart');
  assert.ok(Object.isFrozen(page) && Object.isFrozen(page?.frontmatter) && Object.isFrozen(page?.slugs));
  assert.ok(Object.isFrozen(site.navigation()) && Object.isFrozen(site.navigation()[0]?.pages));
});

pages.run();

const drafts = suite('draft pages');

drafts('are not served, listed, navigable or searchable, and not link-checked', () => {
  // The draft fixture links to a missing page; the site still builds.
  assert.is(site.page('/concepts/draft-idea'), undefined);
  assert.is(site.markdown('/concepts/draft-idea'), undefined);
  assert.not.ok(site.paths().includes('/concepts/draft-idea'));
  const navigated = site.navigation().flatMap((section) => [section.path, ...section.pages.map((p) => p.path)]);
  assert.not.ok(navigated.includes('/concepts/draft-idea'));
  assert.equal(site.search('zanzibar'), []);
  assert.equal(site.search('Zanzibar draft'), []);
});

drafts.run();

const paths = suite('docs paths of files and generated pages');

paths('file names that make invalid or duplicate docs paths are rejected, each named', () => {
  const error = fixtureBuildError('bad-paths');
  const files = error.problems.map((p) => p.file);
  assert.equal(files, [
    'test/fixtures/docs/bad-paths/content/Upper_Case.md',
    'test/fixtures/docs/bad-paths/content/dup.md',
    'test/fixtures/docs/bad-paths/content/index.md',
  ]);
  assert.ok(error.problems[0]?.message.includes('must match ^/[a-z0-9-]+(/[a-z0-9-]+)*$'));
  assert.ok(error.problems[1]?.message.includes('/dup is already taken by test/fixtures/docs/bad-paths/content/dup/index.md'));
});

paths('generated pages are served with the source they were given', () => {
  const withGenerated = buildFixtureSite('site/navigation.yaml', [
    { path: '/reference/parameters', source: 'rulepacks/rules-au-pay/1.0.0', markdown: pageText('# Parameters\n') },
  ]);
  const page = withGenerated.page('/reference/parameters');
  assert.is(page?.source, 'rulepacks/rules-au-pay/1.0.0');
  assert.equal(page?.slugs, ['reference', 'parameters']);
  assert.is(page?.markdown, '# Parameters\n');
});

paths('a generated page with an invalid path, or one a content file already has, is rejected', () => {
  const invalid = buildError(() =>
    buildFixtureSite('site/navigation.yaml', [{ path: '/Reference/X', source: 'gen/invalid', markdown: pageText('x') }]),
  );
  assert.is(invalid.problems[0]?.file, 'gen/invalid');
  const taken = buildError(() => buildFixtureSite('site/navigation.yaml', [{ path: '/quickstart', source: 'gen/taken', markdown: pageText('x') }]));
  assert.is(taken.problems[0]?.file, 'gen/taken');
  assert.ok(taken.problems[0]?.message.includes('/quickstart is already taken by test/fixtures/docs/site/content/quickstart.md'));
});

paths('a missing content folder or navigation file is a build error naming it', () => {
  const noContent = buildError(() => buildDocsSite({ contentDir: fixture('missing/content'), navigationFile: fixture('site/navigation.yaml') }));
  assert.equal(noContent.problems, [{ file: 'test/fixtures/docs/missing/content', message: 'content folder not found' }]);
  const noNavigation = buildError(() => buildDocsSite({ contentDir: fixture('site/content'), navigationFile: fixture('site/missing.yaml') }));
  assert.equal(noNavigation.problems, [{ file: 'test/fixtures/docs/site/missing.yaml', message: 'navigation file not found' }]);
});

paths.run();
