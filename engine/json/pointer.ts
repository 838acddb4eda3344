/** The segments of a JSON Pointer (RFC 6901) such as Ajv's `instancePath`, unescaped: `/a~1b/0` is `a/b`, `0`. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}
