import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as docsSite from '../../docs-site/index.ts';

// The public entry is what the server depends on; changing it should be a deliberate edit here.
test('the public entry exports exactly these runtime values', () => {
  assert.equal(Object.keys(docsSite).sort(), [
    'DOCS_HTML_ASSETS',
    'DOCS_HTML_BASE',
    'DOCS_HTML_SEARCH',
    'DOCS_PATH_PATTERN_SOURCE',
    'DOCS_SCHEMAS',
    'DocsBuildError',
    'EXCERPT_MAX_LENGTH',
    'PAGE_STATUSES',
    'PAGE_TYPES',
    'PRIMARY_READERS',
    'SEARCH_RESULT_LIMIT',
    'buildDocsSite',
    'compileDocsSite',
    'compileStoredDocsSite',
    'docsInputsDigest',
    'formatProblem',
    'openDocsSite',
    'pagesMissingFromNavigation',
    'referencePages',
    'referencePath',
  ]);
});

test.run();
