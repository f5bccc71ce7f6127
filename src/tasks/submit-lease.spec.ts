import { callTimeoutMs, UpstreamError } from '../upstream/upstream-adapter';
import { SubmitLease } from './submit-lease';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SubmitLease', () => {
  it('gives the submit half the lease, and each call the smaller of its own timeout and what remains', async () => {
    const lease = new SubmitLease(
      600,
      async () => true,
      () => undefined,
    );
    try {
      expect(lease.remainingMs()).toBeGreaterThan(250);
      expect(lease.remainingMs()).toBeLessThanOrEqual(300);
      expect(callTimeoutMs(30_000, lease)).toBeLessThanOrEqual(300);
      expect(callTimeoutMs(100, lease)).toBe(100);
      expect(callTimeoutMs(30_000)).toBe(30_000);
      await sleep(320);
      expect(() => callTimeoutMs(30_000, lease)).toThrow(UpstreamError);
    } finally {
      await lease.stop();
    }
  });

  it('extends the lease while it runs and stops doing so once stopped', async () => {
    let beats = 0;
    const lease = new SubmitLease(
      300,
      async () => (++beats, true),
      () => undefined,
    );
    await sleep(250);
    await lease.stop();
    const afterStop = beats;
    expect(afterStop).toBeGreaterThanOrEqual(1);
    await sleep(120);
    expect(beats).toBe(afterStop);
    expect(lease.lost).toBe(false);
  });

  it('is lost, and aborts the upstream call, when a beat finds the task taken over', async () => {
    const lease = new SubmitLease(
      300,
      async () => false,
      () => undefined,
    );
    const aborted = new Promise((resolve) => lease.signal.addEventListener('abort', resolve));
    await aborted;
    expect(lease.lost).toBe(true);
    expect(lease.remainingMs()).toBe(0);
    expect(() => callTimeoutMs(1000, lease)).toThrow('submit abandoned');
    await lease.stop();
  });

  it('rides out a failed beat (the next one tries again)', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const lease = new SubmitLease(
      300,
      async () => {
        if (++calls === 1) throw new Error('database unreachable');
        return true;
      },
      (error) => errors.push(error),
    );
    await sleep(300);
    await lease.stop();
    expect(errors).toHaveLength(1);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(lease.lost).toBe(false);
  });
});
