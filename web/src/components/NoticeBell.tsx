import { Badge, Button, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { layout } from '@/locales/zh-CN';

export const BADGE_CAP = 99;

/** What the badge shows for an unread count: nothing for 0, '99+' above the cap. */
export function badgeText(count: number): string {
  if (!count || count < 0) return '';
  return count > BADGE_CAP ? `${BADGE_CAP}+` : String(count);
}

interface Props {
  count: number;
  onOpen: () => void;
}

/** The alarm bell of the top bar; the unread count comes from the notice poll. */
export function NoticeBell({ count, onOpen }: Props) {
  return (
    <Tooltip title={layout.notices}>
      <Badge count={count} overflowCount={BADGE_CAP} size="small" data-testid="notice-badge">
        <Button type="text" shape="circle" icon={<BellOutlined />} onClick={onOpen} aria-label={layout.notices} />
      </Badge>
    </Tooltip>
  );
}
