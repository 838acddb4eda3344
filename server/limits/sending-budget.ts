/**
 * Bytes of large answers a process starts sending each second: in all, and per client. Answering
 * with a large body is cheap to ask for and costly to give: the whole body is copied to the kernel
 * on the event loop as the answer is written (on loopback and fast networks at once, into socket
 * buffers of megabytes), whether or not the client reads it. A thousand clients asking for a large
 * body at once kept every other request waiting for seconds; a budget of bytes per second bounds
 * that copying, whatever the clients do.
 */
export interface SendingBudget {
  /** Takes `bytes` from the budget for `client` if both it and the client's part have them; whether they did. */
  take(client: string, bytes: number): boolean;
}

export interface SendingBudgetLimits {
  /** Bytes the whole budget gains each second, and the most it holds. */
  totalBytesPerSecond: number;
  /** Bytes a client's part gains each second, and the most it holds. */
  perClientBytesPerSecond: number;
  /** Clients remembered at once; past this the one that took least recently is forgotten. */
  maxClients: number;
}

/**
 * Large static files: any body over 256 KiB counts, 32 MiB a second in all and 4 MiB a second per
 * client. The viewer's bundle fits a client's second more than once even uncompressed, and many
 * times compressed, as browsers ask for it (bench/README.md, "Figures behind the code").
 */
export const LARGE_BODIES = { aboveBytes: 256 * 1024, totalBytesPerSecond: 32 * 1024 * 1024, perClientBytesPerSecond: 4 * 1024 * 1024, maxClients: 10_000 } as const;

interface Bucket {
  bytes: number;
  at: number;
}

export function createSendingBudget(limits: SendingBudgetLimits, now: () => number = () => performance.now()): SendingBudget {
  const total: Bucket = { bytes: limits.totalBytesPerSecond, at: now() };
  const clients = new Map<string, Bucket>();
  const refill = (bucket: Bucket, perSecond: number, at: number) => {
    bucket.bytes = Math.min(perSecond, bucket.bytes + ((at - bucket.at) * perSecond) / 1000);
    bucket.at = at;
  };
  return {
    take(client, bytes) {
      const at = now();
      refill(total, limits.totalBytesPerSecond, at);
      const mine = clients.get(client) ?? { bytes: limits.perClientBytesPerSecond, at };
      refill(mine, limits.perClientBytesPerSecond, at);
      if (bytes > total.bytes || bytes > mine.bytes) return false;
      total.bytes -= bytes;
      mine.bytes -= bytes;
      // Most recently taken last, so the first entry is the one to forget when the table is full.
      clients.delete(client);
      if (clients.size >= limits.maxClients) clients.delete(clients.keys().next().value!);
      clients.set(client, mine);
      return true;
    },
  };
}
