import type { TaskEntity } from '../task.entity';
import { asCustomerSees, isSettling } from './as-customer-sees';

const task = (fields: Partial<TaskEntity>): TaskEntity =>
  ({ status: 'SUCCESS', progress: 100, finishTime: 1_000, settledAt: null, ...fields }) as TaskEntity;

describe('asCustomerSees: a task done at its provider completes for its customer once settled', () => {
  it('shows a provider-done task whose video is not yet stored and settled as in progress at 99%, unfinished', () => {
    expect(asCustomerSees(task({}))).toMatchObject({ status: 'IN_PROGRESS', progress: 99, finishTime: null });
    expect(isSettling(task({}))).toBe(true);
  });

  it('shows a settled task as it is', () => {
    const settled = task({ settledAt: 2_000 });
    expect(asCustomerSees(settled)).toBe(settled);
    expect(isSettling(settled)).toBe(false);
  });

  it('leaves running and failed tasks, and a task read without settled_at, as they are', () => {
    for (const other of [task({ status: 'IN_PROGRESS', progress: 40 }), task({ status: 'FAILURE' }), task({ settledAt: undefined })])
      expect(asCustomerSees(other)).toBe(other);
  });
});
