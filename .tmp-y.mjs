import { readFileSync } from 'node:fs';
import { parseDocument, LineCounter, Lexer, Parser } from 'yaml';
const files = ['facts.yaml','sources.yaml','pack.yaml','rules/payg-withholding.yaml','parameters/withholding-scale-1.yaml'].map(f => { try { return readFileSync('rulepacks/rules-au-pay/1.0.0/' + f, 'utf8'); } catch { return ''; } }).filter(Boolean);
const bytes = files.reduce((a, f) => a + f.length, 0);
for (let i = 0; i < 20; i++) {
  let t = performance.now(); for (const f of files) [...new Lexer().lex(f)]; const lex = performance.now() - t;
  t = performance.now(); for (const f of files) [...new Parser().parse(f)]; const parse = performance.now() - t;
  t = performance.now(); for (const f of files) parseDocument(f, { lineCounter: new LineCounter(), schema: 'core', uniqueKeys: true, strict: true, prettyErrors: false }); const doc = performance.now() - t;
  if (i % 5 === 0 || i === 19) console.log(i, bytes, 'bytes; lex', lex.toFixed(1), 'parse', parse.toFixed(1), 'doc', doc.toFixed(1));
}
