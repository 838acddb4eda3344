/**
 * Objects in progress (requests, responses), kept in an array with each one's position stored on
 * it, so that adding and removing one allocates nothing. A long-lived Set or Map that gains and loses
 * an entry per request re-hashes its table in V8's old generation, and under steady traffic the heap
 * grows until the next full collection; with this array it stays flat
 * (bench/README.md, "Figures behind the code").
 */
export interface InFlight<Item extends object> {
  add(item: Item): void;
  /** Removes the item; false when it was not there. */
  delete(item: Item): boolean;
  readonly size: number;
  /** The items now in progress, as a copy: the caller may remove items while it goes through them. */
  snapshot(): Item[];
}

export function inFlight<Item extends object>(): InFlight<Item> {
  const position = Symbol('in-flight position');
  type Placed = Item & { [position]?: number };
  const items: Placed[] = [];
  return {
    add(item: Placed) {
      if (item[position] !== undefined) return;
      item[position] = items.length;
      items.push(item);
    },
    delete(item: Placed) {
      const index = item[position];
      if (index === undefined) return false;
      const last = items.pop()!;
      if (last !== item) {
        items[index] = last;
        last[position] = index;
      }
      item[position] = undefined;
      return true;
    },
    get size() {
      return items.length;
    },
    snapshot: () => [...items],
  };
}
