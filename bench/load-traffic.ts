/** One request of the mix, ready to send. `kind` groups the report; `calculation` marks requests that take a calculation place. */
export interface PlannedRequest {
  kind: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  calculation: boolean;
}


const CALCULATORS = ['au.pay.take-home', 'au.pay.withholdings', 'au.income-tax.annual'] as const;
const PERIODS = ['weekly', 'fortnightly', 'monthly'] as const;
// Words the docs are about plus some that match nothing, so both the hit and the miss paths run.
const TERMS = ['withholding', 'tax', 'medicare levy', 'take-home', 'fortnightly', 'offset', 'rounding', 'calculator', 'zzzz-none', 'pack'];

const money = (cents: number) => ({ _tag: 'Money', cents, currency: 'AUD' });

/** Whole cents, mostly in everyday ranges with an occasional very large or zero amount. */
function cents(random: () => number, typical: number): number {
  const roll = random();
  if (roll < 0.03) return 0;
  if (roll < 0.06) return Math.floor(random() * 1e11);
  return Math.floor(random() * typical);
}

function calculation(random: () => number): PlannedRequest {
  const id = CALCULATORS[Math.floor(random() * CALCULATORS.length)]!;
  const facts =
    id === 'au.income-tax.annual'
      ? { taxableIncome: money(cents(random, 30_000_000)) }
      : {
          grossPay: { _tag: 'GrossPay', amount: money(cents(random, 1_000_000)), period: PERIODS[Math.floor(random() * PERIODS.length)]! },
          taxFreeThresholdClaimed: random() < 0.5,
        };
  return { kind: `calculate ${id}`, method: 'POST', path: `/api/v1/calculators/${id}/calculate`, body: JSON.stringify({ facts }), calculation: true };
}

function metadata(random: () => number): PlannedRequest {
  const id = CALCULATORS[Math.floor(random() * CALCULATORS.length)]!;
  const roll = random();
  if (roll < 1 / 3) return { kind: 'GET calculators', method: 'GET', path: '/api/v1/calculators', calculation: false };
  if (roll < 2 / 3) return { kind: 'GET facts', method: 'GET', path: `/api/v1/facts?calculator=${id}`, calculation: false };
  return { kind: 'GET schema', method: 'GET', path: `/api/v1/calculators/${id}/schema`, calculation: false };
}

function docsSearch(random: () => number): PlannedRequest {
  const term = TERMS[Math.floor(random() * TERMS.length)]!;
  return { kind: 'GET docs search', method: 'GET', path: `/api/v1/docs/search?term=${encodeURIComponent(term)}`, calculation: false };
}

/**
 * The mix: half calculations (the three calculators evenly, varied facts), 35% metadata (catalog,
 * facts, schema), 15% docs search. Calculations dominate because they are the service's purpose and
 * its costliest route; metadata is what clients read before and between them.
 */
export function nextRequest(random: () => number): PlannedRequest {
  const roll = random();
  if (roll < 0.5) return calculation(random);
  if (roll < 0.85) return metadata(random);
  return docsSearch(random);
}
