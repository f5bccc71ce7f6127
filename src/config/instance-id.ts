import { randomBase62 } from '../common/runtime/random-id';

/** Identifies this process in task leases. */
export const INSTANCE_ID = Symbol('INSTANCE_ID');
export const newInstanceId = (): string => `gw-${process.pid}-${randomBase62(8)}`;
