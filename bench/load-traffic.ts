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

/** A calculation on one of the three calculators, with varied facts. */
export function nextCalculation(random: () => number): PlannedRequest {
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
  if (roll < 0.5) return nextCalculation(random);
  if (roll < 0.85) return metadata(random);
  return docsSearch(random);
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * A search the service has not answered before, so its answer cache cannot help: eight one- or
 * two-letter words (the most a query may have), each matching a large share of the index. These
 * are the costliest requests a client can send for the least input.
 */
function freshSearch(random: () => number): PlannedRequest {
  const word = () => Array.from({ length: 1 + Math.floor(random() * 2) }, () => LETTERS[Math.floor(random() * LETTERS.length)]!).join('');
  const term = Array.from({ length: 8 }, word).join(' ');
  return { kind: 'GET docs search (new term)', method: 'GET', path: `/api/v1/docs/search?term=${encodeURIComponent(term)}`, calculation: false };
}

/**
 * The flood that saturates the service: calculations and searches for new terms, half each. The
 * searches keep the event loop busy long enough for the service to see itself saturated; the
 * calculations are what it must then refuse at once.
 */
export function nextFloodRequest(random: () => number): PlannedRequest {
  return random() < 0.5 ? nextCalculation(random) : freshSearch(random);
}
