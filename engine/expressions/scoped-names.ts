/**
 * Names bound in nested scopes, as `let` binds them: the latest binding of a name hides earlier
 * ones until its scope is left. Binding, looking up and leaving take constant time each, so a
 * formula with thousands of `let` values is read in time linear in its length.
 */
export class ScopedNames<T> {
  private readonly order: string[] = [];
  private readonly bound = new Map<string, T[]>();

  /** How many bindings are in scope: what `leave` takes to return to this point. */
  get size(): number {
    return this.order.length;
  }

  bind(name: string, value: T): void {
    this.order.push(name);
    const stack = this.bound.get(name);
    if (stack) stack.push(value);
    else this.bound.set(name, [value]);
  }

  lookup(name: string): T | undefined {
    return this.bound.get(name)?.at(-1);
  }

  has(name: string): boolean {
    return this.bound.has(name);
  }

  /** Every name in scope, each once. */
  names(): string[] {
    return [...this.bound.keys()];
  }

  /** Leaves the scopes entered since `size` bindings were in scope. */
  leave(size: number): void {
    while (this.order.length > size) {
      const name = this.order.pop()!;
      const stack = this.bound.get(name)!;
      stack.pop();
      if (stack.length === 0) this.bound.delete(name);
    }
  }
}
