import { ValueTransformer } from 'typeorm';

/** mysql2 returns BIGINT as a string, better-sqlite3 as a number: convert once, here. */
export const bigintColumn: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? value : Number(value)),
};

/** JSON kept in a text column (portable across MySQL and SQLite). */
export const jsonColumn: ValueTransformer = {
  to: (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value)),
  from: (value: string | null) => (value === null || value === undefined || value === '' ? null : JSON.parse(value)),
};

/** Booleans come back as 0/1 from both drivers. */
export const booleanColumn: ValueTransformer = {
  to: (value: boolean | null | undefined) => (value === undefined || value === null ? value : value ? 1 : 0),
  from: (value: number | boolean | null) => (value === null ? null : Boolean(value)),
};
