import type { TestDataRow } from '@rehearse/contract';

/**
 * The saved rows in the order the user had them. The server answers them grouped by environment
 * (`data/data.json` keeps one list per environment), which would move a row the user just added
 * between two others; rows the user did not send (none today) keep the server's order, after.
 */
export function inSubmittedOrder(
  saved: readonly TestDataRow[],
  submitted: readonly Pick<TestDataRow, 'key' | 'environment'>[],
): TestDataRow[] {
  const identity = (row: Pick<TestDataRow, 'key' | 'environment'>) => `${row.environment.trim()}\u0000${row.key.trim()}`;
  const position = new Map(submitted.map((row, index) => [identity(row), index] as const));
  const at = (row: TestDataRow) => position.get(identity(row)) ?? Number.POSITIVE_INFINITY;
  return saved
    .map((row, index) => ({ row, index }))
    .sort((a, b) => at(a.row) - at(b.row) || a.index - b.index)
    .map(({ row }) => row);
}
