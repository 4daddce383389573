import { Alert, Card, Space, Tag, Typography } from 'antd';
import { ListTable, type ListColumn } from '@/components/ListTable';
import { useModelAccuracy } from '@/api/loadIdent/queries';
import type { AccuracyRow } from '@/api/schema';
import { loadIdent } from '@/locales/zh-CN';
import { meetsTarget, percent } from '../accuracy';

const a = loadIdent.accuracy;

const COLUMNS: ListColumn<AccuracyRow>[] = [
  {
    title: a.input,
    dataIndex: 'input',
    keep: true,
    render: (text: string, row) => (
      <Space size={4} wrap>
        {text}
        {row.synthetic && <Tag color="purple">{a.synthetic}</Tag>}
      </Space>
    ),
  },
  { title: a.recall, dataIndex: 'recall', align: 'right', keep: true, render: percent },
  { title: a.falseAlarms, dataIndex: 'false_alarms', align: 'right', render: percent },
  { title: a.recallMinPower, dataIndex: 'recall_min_power', align: 'right', render: percent },
  { title: a.target, key: 'target', align: 'right', render: (_, row) => a.targetText(percent(row.target_recall), percent(row.target_false_alarms)) },
  {
    title: a.verdict,
    key: 'verdict',
    align: 'center',
    render: (_, row) => (meetsTarget(row) ? <Tag color="success">{a.met}</Tag> : <Tag color="warning">{a.short}</Tag>),
  },
];

/** 识别准确率: what the evaluation measured on appliances the model never saw, shipped with the model. */
export function AccuracyPanel() {
  const accuracy = useModelAccuracy();
  const data = accuracy.data;
  return (
    <div data-testid="load-accuracy">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        {data && <Alert type="info" showIcon message={a.about(data.devices, data.measured, data.min_power_w)} />}
        <Card title={a.tracebase} size="small">
          <ListTable<AccuracyRow> tableId="load-accuracy" rowKey="input" size="small" loading={accuracy.isPending} columns={COLUMNS} dataSource={data?.rows ?? []} pagination={false} />
        </Card>
        {data && (
          <Card title={a.plaid} size="small">
            <Space wrap>
              <Typography.Text>{a.plaidText(percent(data.plaid_accuracy), percent(data.target_plaid))}</Typography.Text>
              {data.plaid_accuracy >= data.target_plaid ? <Tag color="success">{a.met}</Tag> : <Tag color="warning">{a.short}</Tag>}
            </Space>
          </Card>
        )}
      </Space>
    </div>
  );
}
