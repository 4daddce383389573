import { useCallback, useLayoutEffect, useMemo, useRef, useState, type HTMLAttributes, type ReactNode } from 'react';
import { Button, Checkbox, Descriptions, Popover, Space, Table } from 'antd';
import type { TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { SettingOutlined } from '@ant-design/icons';
import { listTable } from '@/locales/zh-CN';
import { fitColumns, readChoices, widthOf, writeChoices, type ColumnChoices } from './fit';

export interface ListColumn<T> extends ColumnType<T> {
  /**
   * A key column, always shown (and held inside the screen by the layout test): at every width
   * (true), or only in a box at least WIDE_BOX px wide ('wide'), i.e. not on a phone.
   */
  keep?: boolean | 'wide';
  /** Lower ranks stay in sight first when the width runs out; default: the column's position. */
  rank?: number;
}

export type ListTableProps<T> = Omit<TableProps<T>, 'columns' | 'expandable'> & {
  /** Names the table's column choices in localStorage. */
  tableId: string;
  columns: ListColumn<T>[];
  /**
   * A totals row under the list: the label spans the columns before the first total, each total
   * stands under its column (by key) while that column is shown.
   */
  summaryRow?: { label: ReactNode; cells: Record<string, ReactNode> } | null;
};

/** Room the row-selection and the expand columns take. */
const SELECTION_WIDTH = 48;
const EXPAND_WIDTH = 48;
/** From this box width on, 'wide' key columns are key columns too. */
export const WIDE_BOX = 600;

export function columnKey(column: ListColumn<Row>, index: number): string {
  if (column.key !== undefined) return String(column.key);
  const { dataIndex } = column;
  if (Array.isArray(dataIndex)) return dataIndex.join('.');
  if (dataIndex !== undefined) return String(dataIndex);
  return String(index);
}

function numericWidth(column: ListColumn<Row>): number | undefined {
  return typeof column.width === 'number' ? column.width : undefined;
}

function labelOf(column: ListColumn<Row>): ReactNode {
  return typeof column.title === 'function' || !column.title ? listTable.untitled : column.title;
}

function valueOf(column: ListColumn<Row>, row: Row): unknown {
  const path = column.dataIndex === undefined ? [] : Array.isArray(column.dataIndex) ? column.dataIndex : [column.dataIndex];
  let value: unknown = row;
  for (const step of path) value = (value as Record<string | number, unknown> | null | undefined)?.[step as string];
  return path.length ? value : undefined;
}

/** A folded column's content in the expanded row: what its cell would show. */
function cellOf(column: ListColumn<Row>, row: Row, index: number): ReactNode {
  const value = valueOf(column, row);
  if (!column.render) return value === null || value === undefined || value === '' ? '—' : String(value);
  const rendered = column.render(value, row, index) as ReactNode | { children?: ReactNode };
  if (rendered && typeof rendered === 'object' && 'children' in rendered && !('$$typeof' in rendered)) return rendered.children;
  return rendered as ReactNode;
}

/** The width of the box the table lives in, followed as it changes; null where it cannot be measured. */
function useBoxWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const measure = () => setWidth(box.clientWidth || null);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

function useColumnChoices(tableId: string) {
  const [choices, setChoices] = useState<ColumnChoices>(() => readChoices(tableId));
  const update = useCallback(
    (next: ColumnChoices) => {
      writeChoices(tableId, next);
      setChoices(next);
    },
    [tableId],
  );
  return [choices, update] as const;
}

/**
 * Every list of the app: the columns that fit its box are shown (key columns always), the rest fold
 * into an expandable row under each record; the gear in the header lets the user choose the columns,
 * and that choice is kept in localStorage. Long text ends in an ellipsis with the full text as a tooltip.
 */
export function ListTable<T extends object>(props: ListTableProps<T>) {
  return <ListTableBody {...(props as unknown as ListTableProps<Row>)} />;
}

/**
 * The rows as the body sees them. The caller's row type is checked at the call; inside, antd's
 * column types over an unknown row (its deep data-index paths) would take tsc minutes and gigabytes.
 */
type Row = any;

function ListTableBody({ tableId, columns, scroll, rowSelection, summaryRow, ...rest }: ListTableProps<Row>) {
  const { ref, width } = useBoxWidth();
  const [choices, setChoices] = useColumnChoices(tableId);
  const keyed = useMemo(() => columns.map((column, index) => ({ column, key: columnKey(column, index) })), [columns]);
  const wide = width === null || width >= WIDE_BOX;
  // A list that names no key column keeps its first one (what the row is).
  const named = columns.some((column) => column.keep !== undefined);
  const isKey = (column: ListColumn<Row>) =>
    column.keep === true || (column.keep === 'wide' && wide) || (!named && column === columns[0]);
  // A list whose every column is a key column has nothing to fold and nothing to choose.
  const foldable = columns.some((column) => !isKey(column));
  const reserved = (foldable ? EXPAND_WIDTH : 0) + (rowSelection ? SELECTION_WIDTH : 0);
  const shown = fitColumns(
    keyed.map(({ column, key }) => ({
      key,
      width: numericWidth(column),
      keep: isKey(column),
      rank: column.rank,
    })),
    width === null ? null : width - reserved,
    choices,
  );
  const visible = keyed.filter(({ key }) => shown.has(key));
  const folded = keyed.filter(({ key }) => !shown.has(key));
  const total = reserved + visible.reduce((sum, { column }) => sum + widthOf({ key: '', width: numericWidth(column) }), 0);
  const overflows = width === null || total > width;

  const tableColumns = visible.map(({ column, key }): ColumnType<Row> => {
    const { keep: _keep, rank: _rank, ...antd } = column;
    return {
      ...antd,
      key,
      fixed: overflows ? antd.fixed : undefined,
      // A phone has no hover for the tooltip: there the few columns shown wrap instead.
      ellipsis: wide ? antd.ellipsis : false,
      onHeaderCell: isKey(column)
        ? (col) => ({ ...(antd.onHeaderCell?.(col) ?? {}), 'data-key-column': key }) as HTMLAttributes<HTMLElement>
        : antd.onHeaderCell,
    };
  });

  const leadingCount = (foldable ? 1 : 0) + (rowSelection ? 1 : 0);
  const firstTotal = summaryRow ? visible.findIndex(({ key }) => key in summaryRow.cells) : -1;
  const labelSpan = leadingCount + (firstTotal < 0 ? visible.length : firstTotal);
  const summary = summaryRow
    ? () => (
        <Table.Summary fixed>
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={labelSpan}>
              {summaryRow.label}
            </Table.Summary.Cell>
            {visible.slice(labelSpan - leadingCount).map(({ column, key }, i) => (
              <Table.Summary.Cell key={key} index={labelSpan + i} align={column.align}>
                {summaryRow.cells[key] ?? null}
              </Table.Summary.Cell>
            ))}
          </Table.Summary.Row>
        </Table.Summary>
      )
    : undefined;

  const setting = (
    <Popover
      trigger="click"
      placement="bottomLeft"
      title={listTable.columnSettingTitle}
      content={
        <Space direction="vertical" size={4} data-testid={`column-setting-${tableId}`}>
          {keyed.map(({ column, key }) => (
            <Checkbox
              key={key}
              checked={shown.has(key)}
              disabled={isKey(column)}
              onChange={(event) => setChoices({ ...choices, [key]: event.target.checked })}
            >
              {labelOf(column)}
            </Checkbox>
          ))}
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setChoices({})}>
            {listTable.columnReset}
          </Button>
        </Space>
      }
    >
      <Button type="text" size="small" icon={<SettingOutlined />} aria-label={listTable.columnSetting} data-testid="column-setting" />
    </Popover>
  );

  const expandable: TableProps<Row>['expandable'] = {
    columnTitle: setting,
    columnWidth: EXPAND_WIDTH,
    showExpandColumn: true,
    rowExpandable: () => folded.length > 0,
    expandedRowRender: (row, index) => (
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 3 }}
        items={folded.map(({ column, key }) => ({ key, label: labelOf(column), children: cellOf(column, row, index) }))}
      />
    ),
  };

  return (
    <div ref={ref} data-list-table={tableId} data-folded={folded.length} style={{ minWidth: 0, maxWidth: '100%' }}>
      <Table<Row>
        {...rest}
        rowSelection={rowSelection && { columnWidth: SELECTION_WIDTH, ...rowSelection }}
        columns={tableColumns}
        // Columns keep the widths the fitting counted on, whatever their content (a select, a long name).
        tableLayout={rest.tableLayout ?? 'fixed'}
        scroll={{ ...scroll, x: overflows ? total : undefined }}
        summary={summary}
        expandable={foldable ? expandable : undefined}
      />
    </div>
  );
}
