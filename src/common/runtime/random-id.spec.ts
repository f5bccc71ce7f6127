import { newApiKey, newTaskId, randomBase62 } from './random-id';

describe('random ids', () => {
  it('task ids carry the task_ prefix and at least 24 random characters', () => {
    const id = newTaskId();
    expect(id).toMatch(/^task_[A-Za-z0-9]{24,}$/);
    expect(newTaskId()).not.toBe(id);
  });

  it('api keys start with sk- and carry at least 32 random characters', () => {
    expect(newApiKey()).toMatch(/^sk-[A-Za-z0-9]{32,}$/);
  });

  it('never repeats across refills of the random byte pool', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => newTaskId()));
    expect(ids.size).toBe(5000);
    // Longer than the pool at once.
    expect(randomBase62(3000)).toHaveLength(3000);
  });

  it('uses the whole alphabet', () => {
    const seen = new Set(randomBase62(5000));
    expect(seen.size).toBe(62);
  });
});
