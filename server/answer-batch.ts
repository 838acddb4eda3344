/**
 * Calculate answers ready in the same turn of the event loop are written together at its end
 * (`setImmediate`), at most `maxBatch` at a time, instead of each as soon as it is ready.
 *
 * Why: writing an answer wakes the client's process when it is waiting, and a wake-up across cores
 * is dear, on a virtual machine above all. Written one at a time between calculations, nearly every
 * answer found its client asleep again: the socket write of a calculate answer cost 26-36 µs of
 * server CPU where the same bytes cost a server that answers at once 9 µs. Written in batches, the
 * first write of a batch wakes the client and the others find it awake. Measured here (50 keep-alive
 * connections, server CPU per answer, alternating servers, bench/README.md "Answers in batches"):
 * 129-140 µs one at a time, 84-89 µs in batches of 8 to 32. Latency under load falls with it (each
 * connection waits its turn behind fewer microseconds of work); a lone request waits for nothing,
 * since its batch is written as soon as the turn's other work is done.
 */
export type SendSoon = (send: () => void) => void;

/** `reportFailure` hears of a send that threw; the batch's other answers are written all the same. */
export function answerBatch(maxBatch: number, reportFailure: (error: unknown) => void): SendSoon {
  let pending: (() => void)[] = [];
  let scheduled = false;
  const flush = () => {
    const batch = pending;
    pending = [];
    for (const send of batch) {
      try {
        send();
      } catch (error) {
        reportFailure(error);
      }
    }
  };
  return (send) => {
    pending.push(send);
    if (pending.length >= maxBatch) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        flush();
      });
    }
  };
}
