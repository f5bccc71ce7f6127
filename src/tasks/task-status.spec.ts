import { canMove, toFlatStatus } from './task-status';

describe('task state machine', () => {
  it('moves forward only', () => {
    expect(canMove('NOT_START', 'QUEUED')).toBe(true);
    expect(canMove('QUEUED', 'IN_PROGRESS')).toBe(true);
    expect(canMove('IN_PROGRESS', 'QUEUED')).toBe(false);
    expect(canMove('IN_PROGRESS', 'SUCCESS')).toBe(true);
    expect(canMove('NOT_START', 'FAILURE')).toBe(true);
    expect(canMove('SUBMITTING', 'NOT_START')).toBe(true);
  });

  it('keeps terminal states final', () => {
    expect(canMove('SUCCESS', 'FAILURE')).toBe(false);
    expect(canMove('FAILURE', 'SUCCESS')).toBe(false);
    expect(canMove('FAILURE', 'FAILURE')).toBe(false);
  });

  it('allows REJECTED only straight from SUBMITTING', () => {
    expect(canMove('SUBMITTING', 'REJECTED')).toBe(true);
    expect(canMove('QUEUED', 'REJECTED')).toBe(false);
  });

  it('folds unified states into the flat ones', () => {
    expect(toFlatStatus('NOT_START')).toBe('queued');
    expect(toFlatStatus('QUEUED')).toBe('queued');
    expect(toFlatStatus('IN_PROGRESS')).toBe('in_progress');
    expect(toFlatStatus('SUCCESS')).toBe('completed');
    expect(toFlatStatus('FAILURE')).toBe('failed');
  });
});
