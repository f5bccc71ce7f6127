import { DeliverySuccessBuffer } from './delivery-success-buffer';
import type { DeliverySuccess } from './webhook-delivery.repository';

const success = (id: number): DeliverySuccess => ({ id, leaseOwner: `i#w${id}`, statusCode: 204, at: 1_000 + id });

describe('DeliverySuccessBuffer', () => {
  /** A repository whose recordSuccesses fails as often as `failures` says, then writes. */
  const setup = (failures: number) => {
    const written: number[][] = [];
    let left = failures;
    const recordSuccesses = jest.fn(async (rows: DeliverySuccess[]) => {
      if (left-- > 0) throw new Error('database is locked');
      written.push(rows.map((row) => row.id));
    });
    const logger = { error: jest.fn() };
    return { buffer: new DeliverySuccessBuffer({ recordSuccesses }, logger), written, recordSuccesses, logger };
  };

  it('writes the successes gathered so far in one statement, and nothing when none', async () => {
    const { buffer, written, recordSuccesses } = setup(0);
    buffer.add(success(1));
    buffer.add(success(2));
    await buffer.flush();
    await buffer.flush();
    expect(written).toEqual([[1, 2]]);
    expect(recordSuccesses).toHaveBeenCalledTimes(1);
  });

  it('flushes by itself shortly after a success, and at once when 200 gathered', async () => {
    const { buffer, written } = setup(0);
    buffer.add(success(1));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(written).toEqual([[1]]);

    for (let id = 10; id < 210; id++) buffer.add(success(id));
    await buffer.flush();
    expect(written[1]).toHaveLength(200);
  });

  it('logs a failed write and tries its rows once more with the next flush, then drops them', async () => {
    const { buffer, written, logger, recordSuccesses } = setup(1);
    buffer.add(success(1));
    await expect(buffer.flush()).resolves.toBeUndefined();
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('database is locked'));
    buffer.add(success(2));
    await buffer.flush();
    expect(written).toEqual([[1, 2]]);

    const twice = setup(2);
    twice.buffer.add(success(5));
    await twice.buffer.flush();
    await twice.buffer.flush();
    await twice.buffer.flush();
    expect(twice.recordSuccesses).toHaveBeenCalledTimes(2);
    expect(twice.written).toEqual([]);
    expect(recordSuccesses).toHaveBeenCalledTimes(2);
  });
});
