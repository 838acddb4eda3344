import type { Test } from 'uvu';

/**
 * The suite's `test` when `missing` is undefined; otherwise its `skip`, which the runner counts as
 * skipped, with the reason printed once so that a run says what it could not check and why.
 */
export function testOr(suite: Test, missing: string | undefined): Test | Test['skip'] {
  if (missing === undefined) return suite;
  console.log(`\nSKIPPED: ${missing}.\n`);
  return suite.skip;
}

/** Why a test that reads /proc cannot run here, or undefined on Linux. */
export function procUnavailable(what: string): string | undefined {
  return process.platform === 'linux' ? undefined : `${what} is read from /proc, which only Linux has`;
}
