import type { AfterQueryEvent } from 'typeorm';
import { CloseTimedOutConnections } from './close-timed-out-connections.subscriber';

describe('CloseTimedOutConnections', () => {
  const after = (error: unknown) => {
    const connection = { destroy: jest.fn() };
    const event = {
      queryRunner: { databaseConnection: connection },
      success: error === undefined,
      error,
      query: 'SELECT 1',
    } as unknown as AfterQueryEvent;
    new CloseTimedOutConnections().afterQuery(event);
    return connection.destroy;
  };

  it('closes the connection of a query that timed out', () => {
    expect(after(Object.assign(new Error('Query inactivity timeout'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT' }))).toHaveBeenCalledTimes(1);
  });

  it('keeps it after any other failure, and after success', () => {
    expect(after(Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' }))).not.toHaveBeenCalled();
    expect(after(undefined)).not.toHaveBeenCalled();
  });
});
