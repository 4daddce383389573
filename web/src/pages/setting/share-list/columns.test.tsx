import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { ShareRead } from '@/api/schema';
import { shareColumns } from './columns';

const base: ShareRead = {
  sysno: 7,
  direction: 'received',
  project_sysno: 1,
  project_name: '阳光实验学校',
  owner_name: '演示用户',
  owner_mobile: '13800000000',
  grantee_sysno: 2,
  grantee_name: '李四',
  grantee_mobile: '13900001111',
  permission: 2,
  permission_name: '查看和控制',
  building_sysnos: null,
  building_names: [],
  expire_time: null,
  state: 'pending',
  state_name: '待接受',
  invite_expire_time: '2026-12-03 10:00:00',
  remark: null,
  create_time: '2026-11-26 10:00:00',
  respond_time: null,
  end_time: null,
};

function actionsOf(share: ShareRead, act = vi.fn()) {
  const column = shareColumns({ mobile: false, act }).find((c) => c.key === 'actions');
  render(<>{column?.render?.(undefined, share, 0) as ReactNode}</>);
  return act;
}

describe('share list actions', () => {
  it('offers the invitee accept and decline while pending, and calls them', () => {
    const act = actionsOf(base);
    fireEvent.click(screen.getByRole('button', { name: '接受' }));
    expect(act).toHaveBeenCalledWith('accept', base);
    expect(screen.getByRole('button', { name: '拒绝' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '撤销' })).toBeNull();
  });

  it('offers the owner revoke while the share is in force', () => {
    actionsOf({ ...base, direction: 'given', state: 'accepted' });
    expect(screen.getByRole('button', { name: '撤销' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '接受' })).toBeNull();
  });

  it('offers the sharee leave once the share is in force', () => {
    actionsOf({ ...base, state: 'accepted' });
    expect(screen.getByRole('button', { name: '退出' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '撤销' })).toBeNull();
  });

  it('offers nothing on an ended share', () => {
    for (const state of ['revoked', 'expired', 'left'] as const) {
      const { container } = render(
        <>{shareColumns({ mobile: false, act: vi.fn() }).find((c) => c.key === 'actions')?.render?.(undefined, { ...base, state }, 0) as ReactNode}</>,
      );
      expect(container.querySelectorAll('button')).toHaveLength(0);
    }
  });
});
