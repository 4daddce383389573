import type { ReactNode } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import type { AlarmRead, LoadEventRead } from '@/api/schema';
import type { ListColumn } from '@/components/ListTable';
import { loadColumns } from '@/pages/load-identify/columns';
import { alarmColumns } from './columns';

/** The cell a column's `render` draws for a row. */
function cell<T>(columns: ListColumn<T>[], key: string, row: T) {
  const column = columns.find((c) => c.key === key);
  return render(<div>{column?.render?.(undefined, row, 0) as ReactNode}</div>);
}

const canControl = (project: number) => project !== 2;

describe('control actions of view-only projects', () => {
  it('alarm processing is disabled, with the reason, for a project shared view-only', async () => {
    const onProcess = vi.fn();
    const columns = alarmColumns(onProcess, canControl);
    const alarm = (project_sysno: number) => ({ sysno: project_sysno, project_sysno, process_state: 0 }) as AlarmRead;
    cell(columns, 'action', alarm(1));
    cell(columns, 'action', alarm(2));
    const [mine, viewOnly] = screen.getAllByTestId('alarm-process');
    expect(mine).toBeEnabled();
    expect(viewOnly).toBeDisabled();
    fireEvent.click(mine);
    expect(onProcess).toHaveBeenCalledTimes(1);
    fireEvent.mouseEnter(viewOnly.parentElement as HTMLElement);
    expect(await screen.findByText('仅查看权限，无法控制')).toBeInTheDocument();
  });

  it('解锁合闸 is disabled for a project shared view-only', () => {
    const columns = loadColumns({ onDetail: vi.fn(), onHistory: vi.fn(), onUnlock: vi.fn(), canControl });
    const event = (project_sysno: number) => ({ sysno: project_sysno, project_sysno, can_unlock: true }) as LoadEventRead;
    cell(columns, 'operate', event(1));
    cell(columns, 'operate', event(2));
    const [mine, viewOnly] = screen.getAllByTestId('load-unlock');
    expect(mine).toBeEnabled();
    expect(viewOnly).toBeDisabled();
  });
});
