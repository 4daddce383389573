import { useState } from 'react';
import { Drawer, Tag } from 'antd';
import { ListTable } from '@/components/ListTable';
import type { LoadEventRead } from '@/api/schema';
import { useLoadEvents } from '@/api/loadIdent/queries';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { loadIdent } from '@/locales/zh-CN';
import { verdictTag } from '../columns';
import { percent, watts } from '../filters';

interface Props {
  room: Pick<LoadEventRead, 'device_sysno' | 'target_name'> | null;
  onClose: () => void;
  onDetail: (sysno: number) => void;
}

/** 房间记录: one device's identified events, newest first. */
export function RoomHistory({ room, onClose, onDetail }: Props) {
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 10 });
  const width = useDialogWidth(720);
  const list = useLoadEvents({ ...page, device_sysno: room?.device_sysno ?? null, orderBy: 'event_time', sort: 'desc' });
  return (
    <Drawer open={room !== null} onClose={onClose} width={width} title={room ? loadIdent.roomHistory(room.target_name) : ''} destroyOnHidden>
      <ListTable<LoadEventRead>
        tableId="load-room-history"
        size="small"
        rowKey="sysno"
        data-testid="load-room-history"
        loading={list.isFetching}
        dataSource={room ? list.data?.dataSource : []}
        onRow={(row) => ({ onClick: () => onDetail(row.sysno), style: { cursor: 'pointer' } })}
        pagination={{
          current: page.pageIndex,
          pageSize: page.pageSize,
          total: list.data?.totalCount ?? 0,
          showTotal: loadIdent.total,
          onChange: (pageIndex, pageSize) => setPage({ pageIndex, pageSize }),
        }}
        columns={[
          { title: loadIdent.time, dataIndex: 'event_time', width: 165, keep: true },
          { title: loadIdent.event, dataIndex: 'code_name', width: 60 },
          { title: loadIdent.appliance, dataIndex: 'appliance', width: 130, keep: true, render: (a: string, row) => <>{a} {row.action === 'trip' && <Tag color="red">{loadIdent.actionOptions[3].label}</Tag>}</> },
          { title: loadIdent.power, dataIndex: 'power', width: 90, render: (v: number) => watts(v) },
          { title: loadIdent.confidence, dataIndex: 'confidence', width: 70, render: (v: number) => percent(v) },
          { title: loadIdent.forbidden, key: 'verdict', width: 70, render: (_: unknown, row) => verdictTag(row) },
        ]}
      />
    </Drawer>
  );
}
