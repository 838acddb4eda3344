import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnnualJourney, PayJourney } from '../../helpers/conformance.ts';

const JOURNEYS = JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/conformance/journeys.json', import.meta.url)), 'utf8')) as { pay: PayJourney[]; annual: AnnualJourney[] };

/** What calculate-all.ts prints, from the published journeys whose facts it sends. */
export function expectedCalculateAllOutput() {
  const nurse = JOURNEYS.pay.find((journey) => journey.name === 'nurse')!;
  const teacher = JOURNEYS.pay.find((journey) => journey.name === 'teacher')!;
  const annual = JOURNEYS.annual.find((journey) => journey.taxableIncomeCents === 3_000_000)!;
  return {
    takeHome: { tag: 'TakeHomePayReport', netPayCents: nurse.netCents, withheldCents: nurse.withheldCents },
    withholdings: { tag: 'PayWithholdingsLedger', totalCents: teacher.withheldCents },
    annual: { tag: 'AnnualTaxReport', liabilityCents: annual.liability },
  };
}
