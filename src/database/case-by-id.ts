/**
 * Builds `CASE id WHEN ? THEN ? ... END` for a batched UPDATE that sets a different value per
 * row, pushing its parameters onto `params` (so the statement's text depends only on the row count).
 */
export function caseById<Row extends { id: number }>(rows: Row[], params: unknown[], value: (row: Row) => unknown): string {
  const whens = rows.map((row) => {
    params.push(row.id, value(row));
    return 'WHEN ? THEN ?';
  });
  return `CASE id ${whens.join(' ')} END`;
}
