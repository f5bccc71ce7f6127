import { FAILURE, failureReason } from './failure-reason';
import { ownFailureCodes, providerCodeOfReason } from './provider-own-failure';

describe('provider own failures', () => {
  const runwayLike = ownFailureCodes(['INTERNAL', 'THIRD_PARTY.*'], { timeouts: true });

  it('reads the code a generation failure names', () => {
    expect(providerCodeOfReason(failureReason(FAILURE.generation, 'INTERNAL', 'provider internal error'))).toBe('INTERNAL');
    expect(providerCodeOfReason(FAILURE.generation)).toBeNull();
    expect(providerCodeOfReason(failureReason(FAILURE.moderation, 'INTERNAL'))).toBeNull();
  });

  it('says yes to listed codes, their sub-codes and reported timeouts only', () => {
    expect(runwayLike('generation failed: INTERNAL: provider internal error')).toBe(true);
    expect(runwayLike('generation failed: THIRD_PARTY.UNAVAILABLE')).toBe(true);
    expect(runwayLike('generation failed: INTERNAL.BAD_OUTPUT.CODE01')).toBe(false);
    expect(runwayLike('generation failed: ASSET.INVALID')).toBe(false);
    expect(runwayLike('content moderation failed: INTERNAL')).toBe(false);
    expect(runwayLike('upstream timeout: the provider expired the task')).toBe(true);
    // The gateway's own TASK_TIMEOUT_MS is no provider's report.
    expect(runwayLike(FAILURE.timeout)).toBe(false);
    expect(ownFailureCodes(['INTERNAL'])('upstream timeout: the provider expired the task')).toBe(false);
  });
});
