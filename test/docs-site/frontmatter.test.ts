import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildFixtureSite, fixtureBuildError, buildError, pageText } from './helpers.ts';

const contentFiles = suite('frontmatter of content files');

const BAD = 'test/fixtures/docs/bad-frontmatter/content';
// One fixture file per broken rule: the file, the line cited, and what the message must say.
const expectations: [file: string, line: number | undefined, says: string][] = [
  ['duplicate-field.md', 3, 'field `title` is given more than once'],
  ['empty-description.md', 3, 'field `description` must not be empty'],
  ['missing-title.md', undefined, 'field `title` is required'],
  ['no-frontmatter.md', 1, 'must start with YAML frontmatter'],
  ['not-a-mapping.md', undefined, 'frontmatter must be a mapping'],
  ['numeric-title.md', 2, 'field `title` must be a string'],
  ['padded-title.md', 2, 'field `title` must not start or end with whitespace'],
  ['unknown-field.md', 7, 'field `sidebarOrder` is not allowed'],
  ['unknown-page-type.md', 5, 'field `pageType` must be one of'],
  ['unknown-primary-reader.md', 6, 'field `primaryReader` must be one of'],
  ['unknown-status.md', 4, 'field `status` must be one of `published`, `draft`'],
];

contentFiles('every bad file is reported in one error, naming the file, line and field', () => {
  const error = fixtureBuildError('bad-frontmatter');
  assert.is(error.problems.length, expectations.length);
  for (const [file, line, says] of expectations) {
    const problem = error.problems.find((p) => p.file === `${BAD}/${file}`);
    assert.ok(problem, `no problem reported for ${file}`);
    assert.ok(problem.message.includes(says), `${file}: "${problem.message}" should say "${says}"`);
    assert.is(problem.line, line, `${file}: line`);
    assert.ok(error.message.includes(`${BAD}/${file}`), `${file} is named in the error message`);
  }
});

contentFiles.run();

const eachRule = suite('frontmatter rules, one broken field at a time');

// Generated pages go through the same checks as files; their source is what problems name.
const cases: [name: string, fields: Record<string, string | null>, says: string][] = [
  ['missing title', { title: null }, 'field `title` is required'],
  ['missing description', { description: null }, 'field `description` is required'],
  ['missing status', { status: null }, 'field `status` is required'],
  ['missing pageType', { pageType: null }, 'field `pageType` is required'],
  ['missing primaryReader', { primaryReader: null }, 'field `primaryReader` is required'],
  ['empty title', { title: "''" }, 'field `title` must not be empty'],
  ['blank description', { description: "'   '" }, 'field `description` must not be empty'],
  ['trailing space in description', { description: "'Ends with a space '" }, 'field `description` must not start or end with whitespace'],
  ['leading space in pageType', { pageType: "' guide'" }, 'field `pageType` must not start or end with whitespace'],
  ['null title', { title: '~' }, 'field `title` must be a string'],
  ['boolean description', { description: 'true' }, 'field `description` must be a string'],
  ['list status', { status: '[published]' }, 'field `status` must be a string'],
  ['unknown status', { status: 'archived' }, 'field `status` must be one of'],
  ['status in the wrong case', { status: 'Published' }, 'field `status` must be one of'],
  ['unknown pageType', { pageType: 'tutorial' }, 'field `pageType` must be one of'],
  ['unknown primaryReader', { primaryReader: 'Everyone' }, 'field `primaryReader` must be one of'],
  ['extra field', { order: '3' }, 'field `order` is not allowed'],
];

for (const [name, fields, says] of cases) {
  eachRule(`${name} is rejected`, () => {
    const source = `generated/${name.replace(/ /g, '-')}`;
    const error = buildError(() =>
      buildFixtureSite('site/navigation.yaml', [{ path: '/generated/page', source, markdown: pageText('# Page\n', fields) }]),
    );
    assert.is(error.problems.length, 1, error.message);
    assert.is(error.problems[0]?.file, source);
    assert.ok(error.problems[0]?.message.includes(says), error.message);
  });
}

eachRule('quoted values with inner punctuation and spaces are accepted', () => {
  const site = buildFixtureSite('site/navigation.yaml', [
    { path: '/generated/page', source: 'generated', markdown: pageText('# Page\n', { title: "'Read: a trace, #2'" }) },
  ]);
  assert.is(site.page('/generated/page')?.frontmatter.title, 'Read: a trace, #2');
});

eachRule.run();
