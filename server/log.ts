/**
 * A request log that writes its lines in batches: writes to stdout are synchronous system calls when
 * it is a file or a pipe, and one per request cost several per cent of a busy server's time. Lines
 * are flushed once the current burst of work is done, or at once when the buffer is large.
 */
export function createBatchedLog(write: (text: string) => void, maxBufferedBytes = 64 * 1024): { log: (line: object) => void; flush: () => void } {
  let buffer = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer === '') return;
    const text = buffer;
    buffer = '';
    write(text);
  };
  return {
    log(line) {
      buffer += `${JSON.stringify(line)}\n`;
      if (buffer.length >= maxBufferedBytes) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
