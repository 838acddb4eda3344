import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sendAll } from '../helpers/keep-alive-client.ts';

// The contract's calculators as a client meets them, reduced to one hash per answer: every request in
// test/fixtures/contract/answers-baseline.json is sent to a running service, and each answer (status,
// content type and body, byte for byte) is hashed. The baseline holds the hashes its recording service
// gave; a service whose contract calculators answer differently in any byte gives another hash.

export const BASELINE_FILE = fileURLToPath(new URL('../fixtures/contract/answers-baseline.json', import.meta.url));
export const BASELINE_PATH_IN_REPOSITORY = 'test/fixtures/contract/answers-baseline.json';

/** The settings each baseline was recorded with, as `npm start` takes them. */
export const SETTINGS = {
  plain: {},
  all: { TAX_YEARS: 'all', CALCULATORS: 'all' },
} as const satisfies Record<string, Record<string, string>>;

export type SettingName = keyof typeof SETTINGS;

/** One recorded request and the hash of the answer under each setting it was sent with. */
export interface RecordedRequest {
  method: 'GET' | 'POST';
  path: string;
  /** A calculate request's body, sent as JSON.stringify writes it. */
  body?: unknown;
  /** Or its bytes, for a body that is not JSON. */
  rawBody?: string;
  /** `<status> <hash>` by setting; a setting it lacks is not compared (say a catalog-wide list, which a new calculator changes). */
  answers: Partial<Record<SettingName, string>>;
}

export interface Baseline {
  description: string;
  recordedFrom: { commit: string; trees: Record<string, string>; command: string };
  settings: typeof SETTINGS;
  requests: RecordedRequest[];
}

/** The folders whose code and data make the answers: the baseline names their git trees at recording. */
export const ANSWERING_FOLDERS = ['engine', 'server', 'rulepacks'] as const;

/** The contract's calculator ids (test/fixtures/contract/enumerations.json). */
export const CONTRACT_CALCULATORS: string[] = JSON.parse(readFileSync(new URL('../fixtures/contract/enumerations.json', import.meta.url), 'utf8')).calculatorId;

export function readBaseline(): Baseline {
  return JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Baseline;
}

/** `<status> <first 16 hex digits of the SHA-256 of content type and body>`. */
export function answerDigest(status: number, contentType: string | null, body: Buffer): string {
  const hash = createHash('sha256').update(`${contentType ?? ''}\n`).update(body).digest('hex');
  return `${status} ${hash.slice(0, 16)}`;
}

/** Sends every request, a few at a time over kept-alive connections; the digests in request order. */
export async function digestAnswers(url: string, requests: Pick<RecordedRequest, 'method' | 'path' | 'body' | 'rawBody'>[]): Promise<string[]> {
  const outgoing = requests.map(({ method, path, body, rawBody }) => ({ method, path, ...(rawBody !== undefined ? { body: rawBody } : body !== undefined ? { body: JSON.stringify(body) } : {}) }));
  return (await sendAll(url, outgoing)).map((answer) => answerDigest(answer.status, answer.contentType, answer.body));
}
