/**
 * Rejects with `late()` if `work` has not settled within `ms`. When the timer fires, answers already
 * received get one turn of the event loop first (setImmediate runs after pending I/O): on a CPU-bound
 * host the loop can be held up past `ms`, and a reply waiting in the socket is not a lost one.
 */
export function withinTime<T>(work: Promise<T>, ms: number, late: () => Error = () => new Error(`no answer within ${ms} ms`)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => setImmediate(() => reject(late())), ms)));
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
