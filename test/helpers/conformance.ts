import { readFileSync } from 'node:fs';

// The published cases, copied byte for byte from the shared conformance set into
// test/fixtures/conformance; years.json says which files belong to which tax year. Tests take every
// expected figure from here, never from running the project's own code.

/** A published withholding sample: gross pay for a period and the amount withheld from it. */
export interface Sample {
  grossCents: number;
  period: string;
  taxFreeThresholdClaimed: boolean;
  withheldCents: number;
}

/** A pay journey: a sample with its name and the take-home pay. */
export interface PayJourney extends Sample {
  name: string;
  netCents: number;
}

/** An annual journey: a taxable income and each part of the year's tax on it. */
export interface AnnualJourney {
  name: string;
  taxableIncomeCents: number;
  incomeTax: number;
  lito: number;
  medicare: number;
  rawLiability: number;
  liability: number;
}

/** The files of one tax year, as years.json names them. */
export interface YearFiles {
  journeys: string;
  withholdingSamples: string;
  /** Whether the year's pay pack carries every sample as a worked example. */
  everySampleIsAnExample: boolean;
}

/** One conformance file, parsed. */
export function conformanceFile<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/conformance/${name}`, import.meta.url), 'utf8')) as T;
}

/** The conformance files of every tax year that has them, by year. */
export const CONFORMANCE_YEARS: Record<string, YearFiles> = conformanceFile<{ years: Record<string, YearFiles> }>('years.json').years;

/** A year's published withholding samples. */
export function samplesOf(year: string): Sample[] {
  return conformanceFile<{ cases: Sample[] }>(CONFORMANCE_YEARS[year]!.withholdingSamples).cases;
}

/** A year's journeys: pay journeys and annual ones. */
export function journeysOf(year: string): { taxYear?: string; pay: PayJourney[]; annual: AnnualJourney[] } {
  return conformanceFile(CONFORMANCE_YEARS[year]!.journeys);
}
