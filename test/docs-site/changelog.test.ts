import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { shippedPacks } from '../helpers/packs.ts';

// Every report names the pack that produced it (`rulePackVersion`), so an integrator who meets a new
// one looks it up in the changelog: each shipped pack must be announced there, by id and version.

const CHANGELOG = readFileSync(new URL('../../docs-site/content/overview/changelog.md', import.meta.url), 'utf8');

test('the changelog names every shipped pack by id and version', () => {
  const packs = shippedPacks().loaded.packs.map((report) => `${report.pack.id}/${report.pack.version}`);
  assert.ok(packs.length > 0);
  assert.equal(packs.filter((pack) => !new RegExp(`\`${pack.replace(/\./g, '\\.')}\``).test(CHANGELOG)), []);
});

test.run();
