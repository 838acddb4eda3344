import { serialize } from 'node:v8';

/**
 * How V8 holds a string: one byte per character, or two. Read from V8's serialisation of it, whose
 * tag after the header is `"` for a one-byte string and `c` for a two-byte one (with padding bytes
 * first where alignment asks for them).
 */
export function stringWidth(text: string): 'one-byte' | 'two-byte' {
  const bytes = serialize(text);
  let at = 2; // 0xFF and the format version
  while (bytes[at] === 0) at++;
  if (bytes[at] === 0x22) return 'one-byte';
  if (bytes[at] === 0x63) return 'two-byte';
  throw new Error(`unknown string tag ${bytes[at]}`);
}
