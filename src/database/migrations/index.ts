import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { ConsoleSessions1763900000700 } from './1763900000700-console-sessions';
import { Verification1763900000800 } from './1763900000800-verification';
import { IdentifierCollation1764000000100 } from './1764000000100-identifier-collation';
import { SimulatorRecords1764200000400 } from './1764200000400-simulator-records';
import { Webhooks1764300000130 } from './1764300000130-webhooks';

/** Every migration, in order. Add new ones at the end. */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  ConsoleSessions1763900000700,
  Verification1763900000800,
  IdentifierCollation1764000000100,
  SimulatorRecords1764200000400,
  Webhooks1764300000130,
];
