/**
 * Calculate answers ready in the same turn of the event loop are written together at its end
 * (`setImmediate`), at most `maxBatch` at a time, instead of each as soon as it is ready.
 *
 * Why: writing an answer wakes the client's process when it is waiting, and a wake-up across cores
 * is dear, on a virtual machine above all. Written one at a time between calculations, nearly every
 * answer finds its client asleep again, and its socket write costs several times what the same bytes
 * cost a server that answers at once. Written in batches, the first write of a batch wakes the
 * client and the others find it awake: server CPU per answer and latency under load both fall (the
 * figures: bench/README.md, "Answers in batches"). A lone request waits for nothing, since its
 * batch is written as soon as the turn's other work is done.
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
