import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatProblem } from '../../docs-site/index.ts';
import { buildFixtureSite, buildError, fixtureBuildError, pageText } from './helpers.ts';

const LINKS = 'test/fixtures/docs/broken-links/content/guides/links.md';
const OTHER = 'test/fixtures/docs/broken-links/content/guides/other.md';

test('every broken link of every page is listed with its file and line, and only those', () => {
  const error = fixtureBuildError('broken-links');
  assert.equal(error.problems.map(formatProblem), [
    `${LINKS}:12: link \`./missing.md\` leads to /guides/missing, which does not exist`,
    `${LINKS}:13: link \`./draft.md#intro\` leads to /guides/draft, which is a draft, not a published page`,
    `${LINKS}:14: link \`../../outside.md\` points outside the content folder`,
    `${LINKS}:15: link \`./picture.png\` points to a file that is not a documentation page`,
    `${LINKS}:16: link \`/guides/nowhere\` leads to /guides/nowhere, which does not exist`,
    `${LINKS}:19: link \`../gone.md\` leads to /gone, which does not exist`,
    `${OTHER}:9: link \`sibling\` leads to /guides/sibling, which does not exist`,
  ]);
  assert.ok(error.message.includes(`${LINKS}:12`), 'the thrown message lists the problems too');
});

test('a link inside removed MDX is not checked, since no reader will see it', () => {
  const site = buildFixtureSite('site/navigation.yaml', [
    { path: '/generated/mdx', source: 'gen/mdx', markdown: pageText('<Tabs>\n\n[gone](./gone.md)\n\n</Tabs>\n\nText.\n') },
  ]);
  assert.is(site.markdown('/generated/mdx'), 'Text.\n');
});

test('a link in a code block is not a link, so it is neither checked nor rewritten', () => {
  const markdown = pageText('```\n[gone](./gone.md)\n```\n\n`[gone](./gone.md)`\n');
  const site = buildFixtureSite('site/navigation.yaml', [{ path: '/generated/code', source: 'gen/code', markdown }]);
  assert.is(site.markdown('/generated/code'), '```\n[gone](./gone.md)\n```\n\n`[gone](./gone.md)`\n');
});

test('a broken link in a generated page names its source', () => {
  const error = buildError(() =>
    buildFixtureSite('site/navigation.yaml', [{ path: '/generated/x', source: 'gen/x', markdown: pageText('[a](../nope.md)\n') }]),
  );
  assert.equal(error.problems.map(formatProblem), ['gen/x:9: link `../nope.md` leads to /nope, which does not exist']);
});

test.run();
