import { ColorPicker, Divider, Drawer, Radio, Switch, Typography } from 'antd';
import { useBrand } from '@/brands/BrandContext';
import { layout } from '@/locales/zh-CN';
import { appActions, type LayoutSize, useAppStore } from '@/store/app';
import { changeSetting, useSettings } from '@/store/settings';

const PRESET_COLORS = ['#409EFF', '#1890ff', '#304156', '#212121', '#11a983', '#13c2c2', '#6959CD', '#f5222d'];

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: '10px 0' }}>
      <Typography.Text>{label}</Typography.Text>
      {children}
    </div>
  );
}

/** The settings panel: theme colour, tags view, fixed header, sidebar logo and layout size. */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const brand = useBrand();
  const settings = useSettings((s) => s);
  const size = useAppStore((s) => s.size);
  return (
    <Drawer title={layout.settings} open={open} onClose={onClose} size={300} data-testid="settings-drawer">
      <Row label={layout.themeColor}>
        <ColorPicker
          value={settings.themeColor ?? brand.theme_color}
          presets={[{ label: layout.themeColor, colors: PRESET_COLORS }]}
          onChangeComplete={(color) => changeSetting('themeColor', color.toHexString())}
        />
      </Row>
      <Divider style={{ margin: '4px 0' }} />
      <Row label={layout.showTagsView}>
        <Switch checked={settings.tagsView} onChange={(v) => changeSetting('tagsView', v)} />
      </Row>
      <Row label={layout.fixedHeader}>
        <Switch checked={settings.fixedHeader} onChange={(v) => changeSetting('fixedHeader', v)} />
      </Row>
      <Row label={layout.sidebarLogo}>
        <Switch checked={settings.sidebarLogo} onChange={(v) => changeSetting('sidebarLogo', v)} />
      </Row>
      <Row label={layout.size}>
        <Radio.Group
          value={size}
          optionType="button"
          size="small"
          onChange={(e) => appActions.setSize(e.target.value as LayoutSize)}
          options={(['large', 'medium', 'small'] as const).map((value) => ({ value, label: layout.sizes[value] }))}
        />
      </Row>
    </Drawer>
  );
}
