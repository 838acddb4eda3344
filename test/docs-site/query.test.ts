import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkDocsQuery } from '../../docs-site/index.ts';
import { must } from './helpers.ts';

const path = suite('path query parameter');

path('valid paths pass', () => {
  for (const value of ['/a', '/guides', '/guides/read-a-trace', '/0/1-2/x', `/${'a'.repeat(255)}`]) {
    assert.is(checkDocsQuery('path', value), null, value);
  }
});

const pathCases: [value: unknown, message: string][] = [
  [undefined, 'Query parameter `path` is required.'],
  [['/zq9-a', '/zq9-b'], 'Query parameter `path` must be given only once.'],
  [42, 'Query parameter `path` must be a string.'],
  ['', 'Query parameter `path` must be 1 to 256 characters.'],
  [`/${'z'.repeat(256)}`, 'Query parameter `path` must be 1 to 256 characters.'],
  ['zq9', 'Query parameter `path` must match ^/[a-z0-9-]+(/[a-z0-9-]+)*$.'],
  ['/ZQ9', 'Query parameter `path` must match ^/[a-z0-9-]+(/[a-z0-9-]+)*$.'],
  ['/zq9/', 'Query parameter `path` must match ^/[a-z0-9-]+(/[a-z0-9-]+)*$.'],
  ['/zq9//x', 'Query parameter `path` must match ^/[a-z0-9-]+(/[a-z0-9-]+)*$.'],
  ['/../zq9', 'Query parameter `path` must match ^/[a-z0-9-]+(/[a-z0-9-]+)*$.'],
  ['/zq9\n', 'Query parameter `path` must match ^/[a-z0-9-]+(/[a-z0-9-]+)*$.'],
  ['/zq9<script>', 'Query parameter `path` must match ^/[a-z0-9-]+(/[a-z0-9-]+)*$.'],
];

path('invalid paths name the parameter and the rule', () => {
  for (const [value, message] of pathCases) assert.is(checkDocsQuery('path', value), message, JSON.stringify(value));
});

path.run();

const term = suite('term query parameter');

term('valid terms pass, counted in characters rather than UTF-16 units', () => {
  for (const value of ['a', 'read a trace', 'x'.repeat(100), '🧾'.repeat(100), '__proto__', 'a  b']) {
    assert.is(checkDocsQuery('term', value), null, value);
  }
});

const termCases: [value: unknown, message: string][] = [
  [undefined, 'Query parameter `term` is required.'],
  [null, 'Query parameter `term` is required.'],
  [['zq9', 'zq9'], 'Query parameter `term` must be given only once.'],
  [{ zq9: true }, 'Query parameter `term` must be a string.'],
  ['', 'Query parameter `term` must be 1 to 100 characters.'],
  ['zq9'.repeat(34), 'Query parameter `term` must be 1 to 100 characters.'],
  ['🧾'.repeat(101), 'Query parameter `term` must be 1 to 100 characters.'],
  [' zq9', 'Query parameter `term` must not start or end with whitespace.'],
  ['zq9 ', 'Query parameter `term` must not start or end with whitespace.'],
  ['\tzq9', 'Query parameter `term` must not start or end with whitespace.'],
  ['zq9\u00a0', 'Query parameter `term` must not start or end with whitespace.'],
  [' ', 'Query parameter `term` must not start or end with whitespace.'],
];

term('invalid terms name the parameter and the rule', () => {
  for (const [value, message] of termCases) assert.is(checkDocsQuery('term', value), message, JSON.stringify(value));
});

term.run();

const secrecy = suite('validation messages');

secrecy('never contain the rejected value', () => {
  // Every rejected value above carries the marker `zq9`; no message may repeat it.
  for (const [parameter, cases] of [['path', pathCases], ['term', termCases]] as const) {
    for (const [value] of cases) {
      const message = must(checkDocsQuery(parameter, value) ?? undefined, 'a problem');
      assert.not.ok(message.toLowerCase().includes('zq9'), message);
    }
  }
});

secrecy.run();
