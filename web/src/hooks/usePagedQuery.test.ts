import { act, renderHook } from '@testing-library/react';
import { usePagedQuery } from './usePagedQuery';

const total = (n: number) => `共 ${n} 条`;

describe('usePagedQuery', () => {
  it('starts on page 1, newest first, and builds the pager', () => {
    const { result } = renderHook(() => usePagedQuery({ pageSizes: [10, 20], orderBy: 'offline_time', showTotal: total }));
    expect(result.current.page).toEqual({ pageIndex: 1, pageSize: 10 });
    expect(result.current.order).toEqual({ orderBy: 'offline_time', sort: 'desc' });
    expect(result.current.pagination(42)).toMatchObject({ current: 1, pageSize: 10, total: 42, showSizeChanger: true, pageSizeOptions: [10, 20] });
  });

  it('keeps the page on a page change, returns to page 1 on a size change or a new search', () => {
    const { result } = renderHook(() => usePagedQuery<{ keyword?: string }>({ pageSizes: [10, 20], showTotal: total }));
    act(() => result.current.pagination(100).onChange?.(3, 10));
    expect(result.current.page).toEqual({ pageIndex: 3, pageSize: 10 });
    act(() => result.current.pagination(100).onChange?.(3, 20));
    expect(result.current.page).toEqual({ pageIndex: 1, pageSize: 20 });
    act(() => result.current.pagination(100).onChange?.(2, 20));
    act(() => result.current.search({ keyword: 'x' }));
    expect(result.current.page).toEqual({ pageIndex: 1, pageSize: 20 });
    expect(result.current.filters).toEqual({ keyword: 'x' });
  });

  it('follows the table sorter, falling back to the default column', () => {
    const { result } = renderHook(() => usePagedQuery({ pageSizes: [10], showTotal: total }));
    act(() => result.current.onTableChange({}, {}, { columnKey: 'name', order: 'ascend' }));
    expect(result.current.order).toEqual({ orderBy: 'name', sort: 'asc' });
    act(() => result.current.onTableChange({}, {}, [{ columnKey: 'name', order: null }]));
    expect(result.current.order).toEqual({ orderBy: 'create_time', sort: 'desc' });
  });

  it('hands the table its rows, loading state and pager', () => {
    const { result } = renderHook(() => usePagedQuery({ pageSizes: [10], showTotal: total }));
    const props = result.current.tableProps({ data: { dataSource: [{ sysno: 1 }], totalCount: 7 }, isFetching: true });
    expect(props).toMatchObject({ dataSource: [{ sysno: 1 }], loading: true, pagination: { total: 7, current: 1 } });
    expect(result.current.tableProps({ data: undefined, isFetching: false })).toMatchObject({ dataSource: [], loading: false, pagination: { total: 0 } });
  });
});
