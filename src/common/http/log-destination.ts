import pino from 'pino';

/** What the coalescing stream needs of pino's asynchronous destination (sonic-boom). */
export interface AsyncLogDestination {
  write(text: string): boolean;
  flushSync(): void;
}

/** Every stream made here, flushed when the process exits (one listener however many apps a process makes, as in the tests). */
const streams = new Set<WeakRef<{ flushSync(): void }>>();
process.once('exit', () => {
  for (const stream of streams) {
    try {
      stream.deref()?.flushSync();
    } catch {
      // A destination already closed or broken (EPIPE) has nowhere to write to.
    }
  }
});

/**
 * pino's stream for the request log: the asynchronous destination (`pino.destination({ sync: false })`,
 * stdout), handed the lines written during one turn of the event loop as one write, at setImmediate.
 * Written straight to the destination, nearly every line was a write of its own (the previous one
 * had already finished): a trip through libuv's thread pool per request, which cost more CPU than
 * the rest of the request log. The lines, their order and their destination stay the same; a line
 * waits at most for the end of the turn it was written in, and on exit whatever waits is written
 * synchronously, as pino does for the destination itself.
 */
export function requestLogStream(destination: AsyncLogDestination = pino.destination({ sync: false })): pino.DestinationStream & {
  flushSync(): void;
} {
  let pending = '';
  let scheduled = false;
  const handOver = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    destination.write(text);
  };
  const flushSync = () => {
    handOver();
    destination.flushSync();
  };
  const stream = {
    write(line: string): void {
      pending += line;
      if (!scheduled) {
        scheduled = true;
        setImmediate(handOver);
      }
    },
    flushSync,
  };
  streams.add(new WeakRef(stream));
  return stream;
}
