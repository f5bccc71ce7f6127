import { FAILURE, failureCode, failureReason } from './failure-reason';

describe('the failure vocabulary', () => {
  it('writes a reason as its category, then the code and its meaning', () => {
    expect(failureReason(FAILURE.generation, 'InternalError.Algo', 'provider internal error')).toBe(
      'generation failed: InternalError.Algo: provider internal error',
    );
    expect(failureReason(FAILURE.moderation, 'DataInspectionFailed', undefined)).toBe('content moderation failed: DataInspectionFailed');
    expect(failureReason(FAILURE.generation)).toBe('generation failed');
  });

  it('gives every family the same error code: the category alone', () => {
    expect(failureCode('generation failed: InternalError.Algo: provider internal error')).toBe('generation_failed');
    expect(failureCode('generation failed (InternalError.Algo)')).toBe('generation_failed');
    expect(failureCode('content moderation failed: DataInspectionFailed')).toBe('content_moderation_failed');
    expect(failureCode('content moderation failed')).toBe('content_moderation_failed');
    expect(failureCode('upstream timeout')).toBe('upstream_timeout');
    expect(failureCode('upstream timeout: the provider expired the task')).toBe('upstream_timeout');
    expect(failureCode('something else entirely')).toBe('generation_failed');
    expect(failureCode(null)).toBe('generation_failed');
  });
});
