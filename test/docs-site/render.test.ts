import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildFixtureSite, fixture, fixtureBuildError, must, pageText } from './helpers.ts';

const site = buildFixtureSite();
const source = (relative: string): string => readFileSync(fixture(`site/content/${relative}`), 'utf8');
const served = (path: string): string => must(site.markdown(path), `served Markdown of ${path}`);

const rendering = suite('served Markdown');

rendering('the MDX-rich guide renders exactly as the reviewed expectation', () => {
  assert.fixture(served('/guides/read-a-trace'), readFileSync(fixture('site/expected/read-a-trace.md'), 'utf8'));
});

rendering('the frontmatter block is not part of the served Markdown', () => {
  for (const path of site.paths()) {
    const markdown = served(path);
    assert.not.ok(markdown.startsWith('---'), path);
    assert.not.ok(/^(status|pageType|primaryReader):/m.test(markdown), path);
  }
});

rendering('relative links become docs paths, keeping anchors; index files become folder paths', () => {
  const guide = served('/guides/read-a-trace');
  assert.ok(guide.includes('[traces](/concepts/traces)'));
  assert.ok(guide.includes('[rounding rules](/concepts/traces#rounding)'));
  assert.ok(guide.includes('[guides index](/guides)'));
  assert.ok(guide.includes('[concepts section](/concepts)'));
  assert.ok(guide.includes('[traces without extension](/concepts/traces)'));
  assert.ok(guide.includes('[the quickstart](/quickstart "Quickstart")'), 'an angle-bracketed destination keeps its title');
  assert.ok(guide.includes('[g]: /reference/glossary'), 'reference definitions are rewritten');

  const quickstart = served('/quickstart');
  assert.ok(quickstart.includes('[read the trace](/guides/read-a-trace#step-2)'));
  assert.ok(quickstart.includes('[all guides](/guides)'));
  assert.ok(quickstart.includes('[ref]: /reference'));
  assert.ok(served('/concepts').includes('[traces](/concepts/traces)'), 'a bare sibling file name resolves too');
});

rendering('external links, pure anchors, service routes and images are left as written', () => {
  const guide = served('/guides/read-a-trace');
  for (const kept of ['[back up](#step-2)', '[API viewer](/api/docs)', '[spec](https://example.com/spec.md)', '[mail us](mailto:docs@example.com)', '![a diagram](./diagram.png)']) {
    assert.ok(guide.includes(kept), kept);
  }
});

rendering('imports, exports, JSX elements with their children and expressions are removed', () => {
  const guide = served('/guides/read-a-trace');
  for (const gone of ["import { Callout }", 'export const meta', '<Callout type', 'callout text is MDX only', '<Badge', 'beta', '{props.year}']) {
    assert.not.ok(guide.includes(gone), gone);
  }
  assert.ok(guide.startsWith('# Read a trace\n\nEvery result'), 'no blank lines are left where the imports were');
});

rendering('code blocks and code spans are served byte for byte, even with links and MDX-like text', () => {
  const text = source('guides/read-a-trace.md');
  const guide = served('/guides/read-a-trace');
  const fencedBlocks = text.match(/^(```|~~~)[^\n]*\n[\s\S]*?^\1$/gm) ?? [];
  assert.is(fencedBlocks.length, 2);
  for (const block of fencedBlocks) assert.ok(guide.includes(block), block);
  assert.ok(guide.includes('`[x](./quickstart.md)` and `{braces}`'));
});

rendering('a plain Markdown page is served as written after its frontmatter (indented code, autolinks, a < b)', () => {
  const text = source('reference/glossary.md');
  const body = text.slice(text.indexOf('\n---\n') + '\n---\n'.length).replace(/^\n+/, '');
  assert.is(served('/reference/glossary'), body);
  assert.ok(body.includes('    indented code keeps <Foo /> and {x} as written'));
});

rendering('raw HTML is treated as JSX and removed, so no script reaches a reader', () => {
  const withHtml = buildFixtureSite('site/navigation.yaml', [
    {
      path: '/generated/html',
      source: 'gen/html',
      markdown: pageText('Before.\n\n<script>alert(1)</script>\n\nAfter <b>bold</b> text.\n'),
    },
  ]);
  assert.is(withHtml.markdown('/generated/html'), 'Before.\n\nAfter text.\n');
});

rendering('relative links in a generated page resolve as if it were a file at its docs path', () => {
  const generated = buildFixtureSite('site/navigation.yaml', [
    {
      path: '/reference/parameters',
      source: 'gen/parameters',
      markdown: pageText('See [traces](../concepts/traces.md#rounding) and [limits](./limits.md).\n'),
    },
  ]);
  assert.is(generated.markdown('/reference/parameters'), 'See [traces](/concepts/traces#rounding) and [limits](/reference/limits).\n');
});

rendering('MDX that cannot be parsed is a build error naming the file and line', () => {
  const error = fixtureBuildError('bad-mdx');
  assert.is(error.problems.length, 1);
  assert.is(error.problems[0]?.file, 'test/fixtures/docs/bad-mdx/content/guides/index.md');
  assert.is(error.problems[0]?.line, 13);
  assert.ok(error.problems[0]?.message.includes('MDX cannot read it'));
  assert.ok(error.problems[0]?.message.includes('escape a literal `{`'));
});

rendering.run();
