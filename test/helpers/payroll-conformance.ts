import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { money } from './packs.ts';

// The tax office's published sample data for PAYG withholding by every scale and study-loan
// edition, copied byte for byte from the shared conformance set into
// test/fixtures/conformance/payroll, one file per published edition, each with its own description
// and source. Tests take every expected amount and scale from here, never from running our own code.

const FOLDER = fileURLToPath(new URL('../fixtures/conformance/payroll/', import.meta.url));

/** One published case: a payment, the payee's declaration, the scale it selects and the amount to withhold. */
export interface PayrollCase {
  period: 'weekly' | 'fortnightly' | 'monthly';
  grossCents: number;
  paymentDate: string;
  residency: 'resident' | 'foreign-resident';
  tfnProvided: boolean;
  taxFreeThresholdClaimed: boolean;
  medicareLevyExemption: 'none' | 'half' | 'full';
  studyLoan: boolean;
  scale: number;
  withheldCents: number;
}

/** One published edition's sample data, as its file gives it. */
export interface PayrollFile {
  file: string;
  description: string;
  source: { kind: string; reference: string; title: string };
  cases: PayrollCase[];
}

/**
 * The days on which each file's edition applies, from the reference's table of editions
 * (payroll-withholding.md, "Which edition applies"): the payment date chooses the edition.
 */
export const EDITION_SPANS: Record<string, { first: string; last: string }> = {
  'nat1004-2024-07.json': { first: '2024-07-01', last: '2026-06-30' },
  'nat1004-2026-07.json': { first: '2026-07-01', last: '2027-06-30' },
  'nat1004-scale4-2020-10.json': { first: '2024-07-01', last: '2027-06-30' },
  'nat3539-2024-07.json': { first: '2024-07-01', last: '2025-06-30' },
  'nat3539-2025-07.json': { first: '2025-07-01', last: '2025-09-23' },
  'nat3539-2025-09.json': { first: '2025-09-24', last: '2026-06-30' },
  'nat3539-2026-07.json': { first: '2026-07-01', last: '2027-06-30' },
};

let files: PayrollFile[] | undefined;

/** Every payroll conformance file, in name order, parsed once per test process. */
export function payrollFiles(): PayrollFile[] {
  files ??= readdirSync(FOLDER)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((file) => ({ file, ...(JSON.parse(readFileSync(`${FOLDER}${file}`, 'utf8')) as Omit<PayrollFile, 'file'>) }));
  return files;
}

/** Every published case, each with the file it comes from. */
export function payrollCases(): (PayrollCase & { file: string })[] {
  return payrollFiles().flatMap(({ file, cases }) => cases.map((item) => ({ ...item, file })));
}

/** The facts of au.payroll.withholding for a published case: the declaration's answers and the payment. */
export function payrollFacts(item: PayrollCase) {
  return {
    grossPay: { _tag: 'GrossPay', amount: money(item.grossCents), period: item.period },
    paymentDate: item.paymentDate,
    residency: item.residency,
    tfnProvided: item.tfnProvided,
    taxFreeThresholdClaimed: item.taxFreeThresholdClaimed,
    medicareLevyExemption: item.medicareLevyExemption,
    studyLoan: item.studyLoan,
  };
}

/** A case's label for failure messages. */
export function payrollLabel(item: PayrollCase & { file?: string }): string {
  const declaration = [item.residency, item.tfnProvided ? 'TFN' : 'no TFN', item.taxFreeThresholdClaimed ? 'threshold' : 'no threshold', `Medicare ${item.medicareLevyExemption}`, item.studyLoan ? 'study loan' : 'no loan'].join(', ');
  return `${item.file ?? ''} ${item.period} ${item.grossCents} on ${item.paymentDate} (${declaration})`.trim();
}

/** The edition a file's source names, such as "September 2025", if it names one. */
export function editionOf(file: PayrollFile): string | undefined {
  return /\((\w+ \d{4}) edition\)/.exec(file.source.reference)?.[1];
}

/** The facts of a resident payee who gave a TFN, claims the tax-free threshold and no Medicare levy exemption, paid weekly. */
export function residentPayrollFacts(paymentDate: string, cents: number, studyLoan: boolean) {
  return {
    grossPay: { _tag: 'GrossPay', amount: money(cents), period: 'weekly' },
    paymentDate,
    residency: 'resident',
    tfnProvided: true,
    taxFreeThresholdClaimed: true,
    medicareLevyExemption: 'none',
    studyLoan,
  };
}
