import { Alert, Card, Space, Tag, Typography } from 'antd';
import { ListTable, type ListColumn } from '@/components/ListTable';
import { useModelAccuracy } from '@/api/loadIdent/queries';
import { useAppStore } from '@/store/app';
import type { AccuracyRow } from '@/api/schema';
import { loadIdent } from '@/locales/zh-CN';
import { meetsTarget, percent } from '../accuracy';

const a = loadIdent.accuracy;

function Verdict({ met }: { met: boolean }) {
  return met ? <Tag color="success">{a.met}</Tag> : <Tag color="warning">{a.short}</Tag>;
}

/** The input's name wraps on a phone, where the figures but the recall fold into the expanded row. */
const columns = (mobile: boolean): ListColumn<AccuracyRow>[] => [
  {
    title: a.input,
    dataIndex: 'input',
    width: mobile ? 150 : 300,
    keep: true,
    render: (text: string, row) => (
      <Space size={4} wrap>
        {text}
        {row.synthetic && <Tag color="purple">{a.synthetic}</Tag>}
      </Space>
    ),
  },
  { title: a.recall, dataIndex: 'recall', width: 110, align: 'right', keep: true, render: percent },
  { title: a.falseAlarms, dataIndex: 'false_alarms', width: 90, align: 'right', render: percent },
  { title: a.recallMinPower, dataIndex: 'recall_min_power', width: 160, align: 'right', render: percent },
  { title: a.target, key: 'target', width: 190, align: 'right', render: (_, row) => a.targetText(percent(row.target_recall), percent(row.target_false_alarms)) },
  {
    title: a.verdict,
    key: 'verdict',
    width: 100,
    align: 'center',
    render: (_, row) => <Verdict met={meetsTarget(row)} />,
  },
];

/** 识别准确率: what the evaluation measured on appliances the model never saw, shipped with the model. */
export function AccuracyPanel() {
  const accuracy = useModelAccuracy();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const data = accuracy.data;
  return (
    <div data-testid="load-accuracy">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        {data && <Alert type="info" showIcon message={a.about(data.devices, data.measured, data.min_power_w)} />}
        <Card title={a.tracebase} size="small">
          <ListTable<AccuracyRow> tableId="load-accuracy" rowKey="input" size="small" loading={accuracy.isPending} columns={columns(mobile)} dataSource={data?.rows ?? []} pagination={false} />
        </Card>
        {data && (
          <Card title={a.plaid} size="small">
            <Space wrap>
              <Typography.Text>{a.plaidText(percent(data.plaid_accuracy), percent(data.target_plaid))}</Typography.Text>
              <Verdict met={data.plaid_accuracy >= data.target_plaid} />
            </Space>
          </Card>
        )}
      </Space>
    </div>
  );
}
