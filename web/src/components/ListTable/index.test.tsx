import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ListTable, type ListColumn } from '.';

interface Row {
  id: number;
  name: string;
  state: string;
  note: string;
}

const COLUMNS: ListColumn<Row>[] = [
  { title: '名称', dataIndex: 'name', width: 150, keep: true },
  { title: '状态', dataIndex: 'state', width: 90 },
  { title: '备注', dataIndex: 'note', width: 200 },
];
const ROWS: Row[] = [{ id: 1, name: '一号网关', state: '在线', note: '配电房' }];

afterEach(() => localStorage.clear());

describe('ListTable', () => {
  it('marks the key columns and lets the user hide a column, remembered in localStorage', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<ListTable<Row> tableId="demo" rowKey="id" columns={COLUMNS} dataSource={ROWS} pagination={false} />);
    const header = screen.getByRole('columnheader', { name: '名称' });
    expect(header).toHaveAttribute('data-key-column', 'name');
    expect(screen.getByRole('columnheader', { name: '备注' })).not.toHaveAttribute('data-key-column');

    await user.click(screen.getAllByTestId('column-setting')[0]);
    const setting = await screen.findByTestId('column-setting-demo');
    expect(within(setting).getByRole('checkbox', { name: '名称' })).toBeDisabled();
    await user.click(within(setting).getByRole('checkbox', { name: '备注' }));
    expect(screen.queryByRole('columnheader', { name: '备注' })).toBeNull();
    expect(JSON.parse(localStorage.getItem('pp.columns.demo') ?? '{}')).toEqual({ note: false });

    unmount();
    render(<ListTable<Row> tableId="demo" rowKey="id" columns={COLUMNS} dataSource={ROWS} pagination={false} />);
    expect(screen.queryByRole('columnheader', { name: '备注' })).toBeNull();
    expect(screen.getByRole('columnheader', { name: '状态' })).toBeInTheDocument();
  });

  it('shows a hidden column in the expanded row', async () => {
    localStorage.setItem('pp.columns.demo', JSON.stringify({ note: false }));
    const user = userEvent.setup();
    render(<ListTable<Row> tableId="demo" rowKey="id" columns={COLUMNS} dataSource={ROWS} pagination={false} />);
    expect(screen.queryByText('配电房')).toBeNull();
    await user.click(screen.getByRole('button', { name: /展开行|expand/i }));
    expect(await screen.findByText('配电房')).toBeInTheDocument();
    expect(screen.getByText('备注')).toBeInTheDocument();
  });
});
