import type { SharedRateLimiters } from '../shared-state/shared-rate-limiters.service';
import { AccountSignInThrottle } from './account-sign-in-throttle';

describe('AccountSignInThrottle', () => {
  const counted: string[] = [];
  const limiters = {
    peek: async (_name: string, _points: number, _ms: number, key: string) => (
      counted.push(`peek ${key}`),
      { allowed: true, msBeforeNext: 0 }
    ),
    consume: async (_name: string, _points: number, _ms: number, key: string) => (
      counted.push(`consume ${key}`),
      { allowed: true, msBeforeNext: 0 }
    ),
  } as unknown as SharedRateLimiters;
  const throttle = new AccountSignInThrottle(limiters);

  beforeEach(() => (counted.length = 0));

  it('counts an account name as MySQL compares it: trimmed, case-insensitive', async () => {
    await throttle.admit(' Alice ');
    await throttle.recordFailure('ALICE');
    expect(counted).toEqual(['peek alice', 'consume alice']);
  });

  it.each([null, undefined, 42, true, { name: 'alice' }, ['alice']])(
    'takes any JSON as a name without failing: %p names no account',
    async (name) => {
      await expect(throttle.admit(name)).resolves.toBeUndefined();
      await expect(throttle.recordFailure(name)).resolves.toBeUndefined();
      expect(counted).toEqual([]);
    },
  );
});
