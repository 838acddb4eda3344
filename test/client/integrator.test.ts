// Lane: services (npm run test:fast leaves this file out).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT, startDefaultService } from '../../tools/openapi/default-service.ts';
import { expectedCalculateAllOutput } from './integrator/expected.ts';

// The integrator's program (type-checked with strict by `npm run typecheck`, which also checks that
// a wrong facts shape does not compile) run against the service as plain `npm start` serves it.
// tarball.test.ts runs the same programs against the packed client, installed outside the repository.
const run = promisify(execFile);

test('a program outside the client package calculates all three calculators through it', async () => {
  // Shedding off: whether a busy test machine's event loop lags is not what the client is tested for.
  const service = await startDefaultService({ MAX_EVENT_LOOP_DELAY_MS: '0' });
  try {
    const { stdout } = await run(join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), ['test/client/integrator/calculate-all.ts'], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '', TAX_RULES_API_URL: service.url },
    });
    assert.equal(JSON.parse(stdout), expectedCalculateAllOutput());
  } finally {
    await service.stop();
  }
});

test.run();
