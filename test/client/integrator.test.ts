// Lane: services (npm run test:fast leaves this file out).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT, startDefaultService } from '../../tools/openapi/default-service.ts';

// The integrator's program (type-checked with strict by `npm run typecheck`, which also checks that
// a wrong facts shape does not compile) run against the service as plain `npm start` serves it.
const run = promisify(execFile);
const JOURNEYS = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/conformance/journeys.json', import.meta.url)), 'utf8'));

test('a program outside the client package calculates all three calculators through it', async () => {
  // Shedding off: whether a busy test machine's event loop lags is not what the client is tested for.
  const service = await startDefaultService({ MAX_EVENT_LOOP_DELAY_MS: '0' });
  try {
    const { stdout } = await run(join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), ['test/client/integrator/calculate-all.ts'], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '', TAX_RULES_API_URL: service.url },
    });
    const nurse = JOURNEYS.pay.find((journey: { name: string }) => journey.name === 'nurse');
    const teacher = JOURNEYS.pay.find((journey: { name: string }) => journey.name === 'teacher');
    const annual = JOURNEYS.annual.find((journey: { taxableIncomeCents: number }) => journey.taxableIncomeCents === 3_000_000);
    assert.equal(JSON.parse(stdout), {
      takeHome: { tag: 'TakeHomePayReport', netPayCents: nurse.netCents, withheldCents: nurse.withheldCents },
      withholdings: { tag: 'PayWithholdingsLedger', totalCents: teacher.withheldCents },
      annual: { tag: 'AnnualTaxReport', liabilityCents: annual.liability },
    });
  } finally {
    await service.stop();
  }
});

test.run();
