import { PendingSubmitWrites } from './pending-submit-writes';

const unavailable = () => Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' });

describe('PendingSubmitWrites', () => {
  let pending: PendingSubmitWrites;

  beforeEach(() => {
    pending = new PendingSubmitWrites();
  });

  afterEach(() => pending.onModuleDestroy());

  it('tries an owed write again while the database is unavailable, then forgets it once it settled', async () => {
    const answers = [unavailable(), unavailable(), true];
    const write = jest.fn(async () => {
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next!;
    });
    pending.owe('refusal of task t1', write);
    for (let round = 0; round < 4; round++) await pending.flush();
    expect(write).toHaveBeenCalledTimes(3);
    expect(pending.size).toBe(0);
  });

  it('keeps a write that is not settled yet, and drops one that fails for another reason', async () => {
    const notYet = jest.fn(async () => false);
    const broken = jest.fn(async (): Promise<boolean> => {
      throw new Error('a bug');
    });
    pending.owe('refusal of task t2', notYet);
    pending.owe('acceptance of task t3', broken);
    await pending.flush();
    await pending.flush();
    expect(notYet).toHaveBeenCalledTimes(2);
    expect(broken).toHaveBeenCalledTimes(1);
    expect(pending.size).toBe(1);
  });

  it('runs one pass at a time', async () => {
    let release!: () => void;
    const write = jest.fn(() => new Promise<boolean>((resolve) => (release = () => resolve(true))));
    pending.owe('refusal of task t4', write);
    const first = pending.flush();
    const second = pending.flush();
    release();
    await Promise.all([first, second]);
    expect(write).toHaveBeenCalledTimes(1);
  });
});
