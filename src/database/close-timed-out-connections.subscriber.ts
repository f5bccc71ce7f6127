import { type AfterQueryEvent, type EntitySubscriberInterface, EventSubscriber } from 'typeorm';

/** The part of a mysql2 pool connection this needs. */
interface PooledConnection {
  destroy(): void;
}

/**
 * Closes a MySQL connection as soon as one of its queries times out (mysql2's query timeout,
 * DATABASE_QUERY_TIMEOUT_MS). The timed-out command never finishes while the server hangs, and
 * mysql2 runs a connection's commands one after another: left open, the transaction's ROLLBACK, or
 * the next borrower's query, would wait behind it far past any timeout (mysql2 starts a command's
 * timer only when the command starts). Closed, they fail at once, the pool opens a fresh
 * connection, and the server rolls back whatever transaction the connection had open.
 */
// TypeORM instantiates only decorated subscribers; buildDataSourceOptions lists this one when a query timeout is set.
@EventSubscriber()
export class CloseTimedOutConnections implements EntitySubscriberInterface {
  afterQuery(event: AfterQueryEvent): void {
    if ((event.error as { code?: string } | undefined)?.code !== 'PROTOCOL_SEQUENCE_TIMEOUT') return;
    const connection = (event.queryRunner as unknown as { databaseConnection?: PooledConnection }).databaseConnection;
    connection?.destroy();
  }
}
