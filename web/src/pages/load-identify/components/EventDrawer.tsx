import { useMemo } from 'react';
import { Alert, Card, Descriptions, Drawer, Empty, Skeleton, theme } from 'antd';
import { useLoadEvent } from '@/api/loadIdent/queries';
import { EChart } from '@/components/charts/EChart';
import { useBrand } from '@/brands/BrandContext';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { loadIdent } from '@/locales/zh-CN';
import { powerStepOption, viOption, waveformOption } from '../charts';
import { verdictTag } from '../columns';
import { percent, watts } from '../filters';

interface Props {
  sysno: number | null;
  onClose: () => void;
}

/** One event: what it was judged and what was done, its power step and, with loadWaveform, its waveform and V-I trajectory. */
export function EventDrawer({ sysno, onClose }: Props) {
  const event = useLoadEvent(sysno);
  const { flags } = useBrand();
  const colour = theme.useToken().token.colorPrimary;
  const width = useDialogWidth(760);
  const data = event.data;
  const charts = useMemo(
    () =>
      data && {
        step: data.power_series ? powerStepOption(data.power_series, colour) : null,
        wave: data.waveform ? waveformOption(data.waveform, colour) : null,
        vi: data.waveform ? viOption(data.waveform, colour) : null,
      },
    [data, colour],
  );
  return (
    <Drawer open={sysno !== null} onClose={onClose} width={width} title={data ? loadIdent.drawerTitle(data.target_name) : loadIdent.detail} destroyOnHidden>
      {!data || !charts ? (
        <Skeleton active />
      ) : (
        <div data-testid="load-event-detail">
          <Descriptions size="small" bordered column={{ xs: 1, sm: 2 }} style={{ marginBottom: 16 }}>
            <Descriptions.Item label={loadIdent.time}>{data.event_time}</Descriptions.Item>
            <Descriptions.Item label={loadIdent.device}>{[data.project_name, data.building_name, data.target_name].filter(Boolean).join(' / ')}</Descriptions.Item>
            <Descriptions.Item label={loadIdent.appliance}>
              {data.appliance} {verdictTag(data)}
            </Descriptions.Item>
            <Descriptions.Item label={loadIdent.confidence}>{percent(data.confidence)}</Descriptions.Item>
            <Descriptions.Item label={loadIdent.power}>{watts(data.power)}</Descriptions.Item>
            <Descriptions.Item label={loadIdent.result}>{data.result}</Descriptions.Item>
            {data.power_factor !== null && <Descriptions.Item label={loadIdent.powerFactor}>{data.power_factor}</Descriptions.Item>}
            {data.thd_current !== null && <Descriptions.Item label={loadIdent.thd}>{`${data.thd_current}%`}</Descriptions.Item>}
          </Descriptions>
          <Card size="small" title={loadIdent.powerStep} style={{ marginBottom: 16 }}>
            {charts.step ? <EChart option={charts.step} height={240} testId="load-power-step" /> : <Empty description={loadIdent.noSeries} />}
          </Card>
          {flags.loadWaveform ? (
            charts.wave && charts.vi ? (
              <>
                <Card size="small" title={loadIdent.waveform} style={{ marginBottom: 16 }}>
                  <EChart option={charts.wave} height={240} testId="load-waveform" />
                </Card>
                <Card size="small" title={loadIdent.vi}>
                  <EChart option={charts.vi} height={300} testId="load-vi" />
                </Card>
              </>
            ) : (
              <Alert type="info" showIcon message={loadIdent.noWaveform} />
            )
          ) : null}
        </div>
      )}
    </Drawer>
  );
}
