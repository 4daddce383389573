/** Which of a list's columns fit its box, and the user's own column choices kept in localStorage. */

/** What the fitting needs to know of a column. */
export interface FitColumn {
  key: string;
  /** The column's width in px (columns without one count as DEFAULT_WIDTH). */
  width?: number;
  /** A key column: always shown, whatever the width. */
  keep?: boolean;
  /** Lower ranks are kept first when the width runs out; default: the column's position. */
  rank?: number;
}

/** The user's explicit choice per column key: shown (true) or hidden (false); absent keys follow the fit. */
export type ColumnChoices = Record<string, boolean>;

export const DEFAULT_WIDTH = 140;
const STORAGE_PREFIX = 'pp.columns.';

export function widthOf(column: FitColumn): number {
  return column.width ?? DEFAULT_WIDTH;
}

/**
 * The keys of the columns to show in a box `available` px wide (null: not measured, show all the
 * user has not hidden). Key columns always show; columns the user chose always show (the table then
 * scrolls); the rest fill what width is left, lowest rank first.
 */
export function fitColumns(columns: FitColumn[], available: number | null, choices: ColumnChoices): Set<string> {
  const shown = new Set<string>();
  let used = 0;
  const take = (column: FitColumn) => {
    shown.add(column.key);
    used += widthOf(column);
  };
  for (const column of columns) {
    if (column.keep || choices[column.key] === true || (available === null && choices[column.key] !== false)) take(column);
  }
  if (available === null) return shown;
  const rest = columns
    .map((column, index) => ({ column, rank: column.rank ?? index }))
    .filter(({ column }) => !shown.has(column.key) && choices[column.key] === undefined)
    .sort((a, b) => a.rank - b.rank);
  for (const { column } of rest) {
    if (used + widthOf(column) <= available) take(column);
  }
  return shown;
}

export function readChoices(tableId: string): ColumnChoices {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_PREFIX + tableId) ?? '{}');
    if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
    return Object.fromEntries(Object.entries(stored).filter(([, v]) => typeof v === 'boolean')) as ColumnChoices;
  } catch {
    return {};
  }
}

export function writeChoices(tableId: string, choices: ColumnChoices): void {
  try {
    if (Object.keys(choices).length === 0) localStorage.removeItem(STORAGE_PREFIX + tableId);
    else localStorage.setItem(STORAGE_PREFIX + tableId, JSON.stringify(choices));
  } catch {
    /* storage full or refused: the choice holds for this visit only */
  }
}
