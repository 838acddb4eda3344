/** A map that keeps at most `capacity` entries, forgetting the one least recently used first. */
export function createLruCache<K, V>(capacity: number): { get(key: K): V | undefined; set(key: K, value: V): void } {
  const entries = new Map<K, V>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      // A Map iterates in insertion order: moving the entry to the end marks it as the latest used.
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as K);
    },
  };
}
