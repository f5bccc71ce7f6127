/**
 * Attempts being sent at once per endpoint on this instance, queued deliveries and test events
 * alike: a queued delivery waits for a free slot (first come, first served); a test event takes
 * one only when one is free.
 */
export class EndpointSendSlots {
  private readonly taken = new Map<number, number>();
  private readonly waiting = new Map<number, Array<() => void>>();

  constructor(private readonly perEndpoint: number) {}

  /** Takes a slot of the endpoint if one is free; false when all are taken. */
  tryTake(endpointId: number): boolean {
    const taken = this.taken.get(endpointId) ?? 0;
    if (taken >= this.perEndpoint) return false;
    this.taken.set(endpointId, taken + 1);
    return true;
  }

  /** Resolves once a slot of the endpoint is this caller's. */
  take(endpointId: number): Promise<void> {
    if (this.tryTake(endpointId)) return Promise.resolve();
    return new Promise((resolve) => {
      const queue = this.waiting.get(endpointId);
      if (queue) queue.push(resolve);
      else this.waiting.set(endpointId, [resolve]);
    });
  }

  /** Frees a slot: the endpoint's first waiter gets it, if any. */
  give(endpointId: number): void {
    const queue = this.waiting.get(endpointId);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.waiting.delete(endpointId);
    if (next) return next();
    const left = (this.taken.get(endpointId) ?? 1) - 1;
    if (left > 0) this.taken.set(endpointId, left);
    else this.taken.delete(endpointId);
  }
}
