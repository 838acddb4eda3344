import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildDocsSite, PAGE_TYPES, PRIMARY_READERS, pagesMissingFromNavigation } from '../../docs-site/index.ts';
import { buildError, buildFixtureSite, fixture } from './helpers.ts';

const shape = suite('navigation shape');
const site = buildFixtureSite();

shape('sections follow the navigation file, with fields from each page frontmatter', () => {
  assert.equal(site.navigation()[0], {
    pageType: 'section index',
    path: '/guides',
    primaryReader: 'Application integrator',
    source: 'test/fixtures/docs/site/content/guides/index.md',
    title: 'Guides',
    pages: [
      { pageType: 'quickstart', path: '/quickstart', primaryReader: 'API consumer', source: 'test/fixtures/docs/site/content/quickstart.md', title: 'Quickstart' },
      {
        pageType: 'guide',
        path: '/guides/read-a-trace',
        primaryReader: 'Application integrator',
        source: 'test/fixtures/docs/site/content/guides/read-a-trace.md',
        title: 'Read a trace',
      },
    ],
  });
  assert.equal(site.navigation().map((section) => section.path), ['/guides', '/concepts', '/reference']);
});

shape('every item has exactly the contract fields, with allowed values', () => {
  for (const section of site.navigation()) {
    assert.equal(Object.keys(section), ['pageType', 'path', 'primaryReader', 'source', 'title', 'pages']);
    for (const item of [section, ...section.pages]) {
      assert.ok((PAGE_TYPES as readonly string[]).includes(item.pageType), item.path);
      assert.ok((PRIMARY_READERS as readonly string[]).includes(item.primaryReader), item.path);
      for (const text of [item.path, item.source, item.title]) assert.ok(text !== '' && text.trim() === text, item.path);
    }
    for (const page of section.pages) assert.equal(Object.keys(page), ['pageType', 'path', 'primaryReader', 'source', 'title']);
  }
});

shape('every published page of the fixture is reachable from the navigation', () => {
  assert.equal(pagesMissingFromNavigation(site), []);
});

shape('a page left out of the navigation is reported', () => {
  assert.equal(pagesMissingFromNavigation(buildFixtureSite('site/navigation-partial.yaml')), ['/reference/limits']);
});

shape.run();

const invalid = suite('invalid navigation files');

const cases: [file: string, line: number | undefined, says: string][] = [
  ['missing-page', 3, 'lists /guides/no-such-page, which is not a page'],
  ['draft-page', 3, 'lists /concepts/draft-idea, which is a draft, not a published page'],
  ['unknown-key', 2, 'has the key `title`'],
  ['not-a-list', undefined, 'navigation must be a list of sections'],
  ['duplicate', 6, 'lists /quickstart again'],
  ['invalid-yaml', 3, 'navigation is not valid YAML'],
  ['missing-pages', 1, 'must have `pages`'],
];

for (const [name, line, says] of cases) {
  invalid(`${name} is rejected with the file and line`, () => {
    const error = buildError(() => buildDocsSite({ contentDir: fixture('site/content'), navigationFile: fixture(`bad-navigation/${name}.yaml`) }));
    assert.is(error.problems.length, 1, error.message);
    assert.is(error.problems[0]?.file, `test/fixtures/docs/bad-navigation/${name}.yaml`);
    assert.is(error.problems[0]?.line, line);
    assert.ok(error.problems[0]?.message.includes(says), error.message);
  });
}

invalid.run();
