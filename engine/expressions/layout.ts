/**
 * A small pretty-printer (after Wadler's "prettier printer"): text with optional line breaks, laid
 * out on one line when it fits the width and broken where it does not.
 */
export type Doc = string | readonly Doc[] | Break | Group | Indent | Align;

/** A place that is `flat` text on one line, or a new line when its group is broken. */
interface Break {
  kind: 'break';
  flat: string;
}
/** Laid out on one line if it fits, otherwise with its own breaks taken. */
interface Group {
  kind: 'group';
  doc: Doc;
}
/** New lines inside start `by` columns further in than the enclosing ones. */
interface Indent {
  kind: 'indent';
  by: number;
  doc: Doc;
}
/** New lines inside start at the column where this starts. */
interface Align {
  kind: 'align';
  doc: Doc;
}

/** A space, or a new line. */
export const line: Doc = { kind: 'break', flat: ' ' };
/** Nothing, or a new line. */
export const softLine: Doc = { kind: 'break', flat: '' };
export const group = (doc: Doc): Doc => ({ kind: 'group', doc });
export const indent = (by: number, doc: Doc): Doc => ({ kind: 'indent', by, doc });
export const align = (doc: Doc): Doc => ({ kind: 'align', doc });

/** Joins docs with a separator. */
export function join(separator: Doc, docs: readonly Doc[]): Doc[] {
  return docs.flatMap((doc, index) => (index === 0 ? [doc] : [separator, doc]));
}

type Frame = [indentation: number, flat: boolean, doc: Doc];

/** Lays a doc out within a width; `Infinity` gives one line. */
export function layout(doc: Doc, width: number): string {
  let out = '';
  let column = 0;
  const stack: Frame[] = [[0, false, doc]];
  while (stack.length > 0) {
    const [indentation, flat, current] = stack.pop()!;
    if (typeof current === 'string') {
      out += current;
      column += current.length;
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push([indentation, flat, current[index]!]);
    } else {
      const node = current as Break | Group | Indent | Align;
      switch (node.kind) {
        case 'break':
          if (flat) {
            out += node.flat;
            column += node.flat.length;
          } else {
            out += `\n${' '.repeat(indentation)}`;
            column = indentation;
          }
          break;
        case 'group':
          stack.push([indentation, flat || fits(width - column, [[indentation, true, node.doc]], stack), node.doc]);
          break;
        case 'indent':
          stack.push([indentation + node.by, flat, node.doc]);
          break;
        case 'align':
          stack.push([column, flat, node.doc]);
          break;
      }
    }
  }
  return out;
}

/** True when the next docs, up to the first line break already decided, fit in the room left. */
function fits(room: number, frames: Frame[], rest: readonly Frame[]): boolean {
  const pending = [...frames];
  let restIndex = rest.length - 1;
  while (room >= 0) {
    if (pending.length === 0) {
      if (restIndex < 0) return true;
      pending.push(rest[restIndex--]!);
    }
    const [indentation, flat, current] = pending.pop()!;
    if (typeof current === 'string') {
      room -= current.length;
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) pending.push([indentation, flat, current[index]!]);
    } else {
      const node = current as Break | Group | Indent | Align;
      if (node.kind === 'break') {
        if (!flat) return true;
        room -= node.flat.length;
      } else {
        pending.push([indentation, flat, node.doc]);
      }
    }
  }
  return false;
}
