/** Each client's share of the process's time for work that costs far more to answer than to ask. */
export interface ClientShare {
  /**
   * Runs `work` for `client` and charges it the time the work took, if the client has time left in
   * its share; otherwise runs nothing and answers how long until it has time again.
   */
  run<T>(client: string, work: () => T): ShareOutcome<T>;
}

export type ShareOutcome<T> = { ran: true; value: T } | { ran: false; refillsInMs: number };

export interface ClientShareLimits {
  /** Time a client's share gains each second: the most of each second its work can take over a while. */
  msPerSecond: number;
  /** The most time a share holds: what a client that has been quiet can spend at once. */
  burstMs: number;
  /** Clients remembered at once; past this the least recently charged is forgotten. */
  maxClients: number;
}

/**
 * Documentation search's share: a tenth of each second per client, and as much at once.
 * A search takes up to a few tens of milliseconds; someone typing searches never meets this bound,
 * while one address sending searches as fast as it can leaves nine tenths of the time to the rest.
 */
export const SEARCH_SHARE: ClientShareLimits = { msPerSecond: 100, burstMs: 100, maxClients: 10_000 };

interface Balance {
  ms: number;
  at: number;
}

/**
 * Shares by client (as `clientKey` names them), refilled with time as a token bucket: a client's
 * work runs while its balance is above zero and is charged what it took, so a stream of requests
 * from one client costs at most `msPerSecond` of every second after its first `burstMs`, and the
 * time left goes to everyone else. The work that ends a balance still runs in full: a balance goes
 * below zero by at most one piece of work, and waits until it has refilled past zero. A client
 * whose share is full again is forgotten, so the table holds only clients with recent work.
 */
export function createClientShare(limits: ClientShareLimits, now: () => number = () => performance.now()): ClientShare {
  const balances = new Map<string, Balance>();
  const refilled = (balance: Balance, at: number): number => Math.min(limits.burstMs, balance.ms + ((at - balance.at) * limits.msPerSecond) / 1000);
  return {
    run(client, work) {
      const startedAt = now();
      const balance = balances.get(client);
      const available = balance === undefined ? limits.burstMs : refilled(balance, startedAt);
      if (available <= 0) return { ran: false, refillsInMs: Math.ceil(((-available + 1) * 1000) / limits.msPerSecond) };
      const value = work();
      const endedAt = now();
      const left = available - (endedAt - startedAt);
      // Most recently charged last, so the first entry is the one to forget when the table is full.
      balances.delete(client);
      if (left < limits.burstMs) {
        if (balances.size >= limits.maxClients) balances.delete(balances.keys().next().value!);
        balances.set(client, { ms: left, at: endedAt });
      }
      return { ran: true, value };
    },
  };
}
