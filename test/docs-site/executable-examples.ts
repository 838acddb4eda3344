/** A request written in the docs as a curl command, and the response the docs show after it. */
export interface DocumentedExample {
  file: string;
  line: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The JSON block that follows the command, if any. */
  documentedResponse?: unknown;
}

/** Finds every `sh` block holding a curl command, with the `json` block right after it. */
export function documentedExamples(file: string, markdown: string): DocumentedExample[] {
  const blocks = [...markdown.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```/gm)].map((match) => ({
    language: match[1]!,
    text: match[2]!,
    line: markdown.slice(0, match.index).split('\n').length,
    end: match.index! + match[0].length,
    start: match.index!,
  }));
  const examples: DocumentedExample[] = [];
  blocks.forEach((block, index) => {
    if (!['sh', 'bash', 'shell'].includes(block.language) || !/^\s*curl\s/m.test(block.text)) return;
    const next = blocks[index + 1];
    const adjacent = next && markdown.slice(block.end, next.start).trim() === '' && next.language === 'json';
    examples.push({ file, line: block.line, ...parseCurl(block.text), ...(adjacent ? { documentedResponse: JSON.parse(next.text) } : {}) });
  });
  return examples;
}

/** Reads the curl forms the docs use: -s, -i, -X, -H, -d and one URL. */
export function parseCurl(text: string): { method: string; url: string; headers: Record<string, string>; body?: string } {
  const tokens = shellWords(text.replace(/\\\n/g, ' '));
  if (tokens[0] !== 'curl') throw new Error('not a curl command');
  const headers: Record<string, string> = {};
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  for (let index = 1; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token === '-X' || token === '--request') method = tokens[++index];
    else if (token === '-H' || token === '--header') {
      const header = tokens[++index]!;
      headers[header.slice(0, header.indexOf(':')).trim().toLowerCase()] = header.slice(header.indexOf(':') + 1).trim();
    } else if (token === '-d' || token === '--data' || token === '--data-raw') body = tokens[++index];
    else if (/^https?:\/\//.test(token)) url = token;
    else if (!/^-[si]+$/.test(token) && token !== '--silent') throw new Error(`unsupported curl argument ${token}`);
  }
  if (!url) throw new Error('curl command without a URL');
  return { method: method ?? (body === undefined ? 'GET' : 'POST'), url, headers, ...(body === undefined ? {} : { body }) };
}

function shellWords(text: string): string[] {
  const words: string[] = [];
  const pattern = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (const match of text.matchAll(pattern)) words.push(match[1] ?? match[2]?.replace(/\\(.)/g, '$1') ?? match[3]!);
  return words;
}

/** True when every key and value the docs show is in the actual JSON (arrays by prefix, in order). */
export function containsDocumented(actual: unknown, documented: unknown, path = '$'): string | undefined {
  if (Array.isArray(documented)) {
    if (!Array.isArray(actual)) return `${path} is not an array`;
    if (actual.length < documented.length) return `${path} has ${actual.length} items, the docs show ${documented.length}`;
    for (let index = 0; index < documented.length; index++) {
      const problem = containsDocumented(actual[index], documented[index], `${path}[${index}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof documented === 'object' && documented !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return `${path} is not an object`;
    for (const [key, value] of Object.entries(documented)) {
      if (!(key in actual)) return `${path}.${key} is missing`;
      const problem = containsDocumented((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  }
  return Object.is(actual, documented) ? undefined : `${path} is ${JSON.stringify(actual)}, the docs show ${JSON.stringify(documented)}`;
}
