import { useEffect, useState } from 'react';
import { Alert, Button, Card, Input, Space, Tag, Typography } from 'antd';
import { notifier } from '@/api/core/notify';
import { smsApi, useSmsMutation, useSmsTemplates } from '@/api/sms/queries';
import type { TemplatePreview, TemplateRead } from '@/api/schema';
import { common, smsSettings as t } from '@/locales/zh-CN';

/** 短信模板: the wording of alarm and offline texts, with variables and a preview. */
export default function SmsTemplatePage() {
  const templates = useSmsTemplates();
  return (
    <div data-testid="sms-template">
      <Alert type="info" showIcon message={t.templateIntro} style={{ marginBottom: 16 }} />
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        {(templates.data ?? []).map((template) => (
          <TemplateCard key={template.template_key} template={template} />
        ))}
      </Space>
    </div>
  );
}

function TemplateCard({ template }: { template: TemplateRead }) {
  const [content, setContent] = useState(template.content);
  const [preview, setPreview] = useState<TemplatePreview | null>(null);
  const save = useSmsMutation((text: string) => smsApi.saveTemplate(template.template_key, text));
  useEffect(() => setContent(template.content), [template.content]);

  async function showPreview(text: string) {
    setPreview(await smsApi.preview(template.template_key, text || template.default_content));
  }

  return (
    <Card
      size="small"
      title={template.name}
      extra={template.customized ? <Tag color="blue">{t.customized}</Tag> : <Tag>{t.builtIn}</Tag>}
      data-testid={`template-${template.template_key}`}
    >
      <div style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t.variables}：</Typography.Text>
        {template.variables.map((v) => (
          <Tag key={v.key} style={{ cursor: 'pointer' }} onClick={() => setContent((c) => `${c}{${v.key}}`)}>
            {`{${v.key}}`} {v.label}
          </Tag>
        ))}
      </div>
      <Input.TextArea rows={3} maxLength={300} showCount value={content} onChange={(e) => setContent(e.target.value)} />
      <Space style={{ marginTop: 12 }}>
        <Button onClick={() => void showPreview(content)}>{t.preview}</Button>
        <Button
          type="primary"
          loading={save.isPending}
          onClick={() => save.mutate(content.trim(), { onSuccess: () => notifier().success(common.saveSuccess) })}
        >
          {t.save}
        </Button>
        <Button
          disabled={!template.customized}
          onClick={() => save.mutate('', { onSuccess: () => notifier().success(common.saveSuccess) })}
        >
          {t.restore}
        </Button>
      </Space>
      {preview && (
        <Alert
          style={{ marginTop: 12 }}
          type="success"
          message={preview.text}
          description={t.previewResult(preview.length, preview.segments)}
          data-testid="template-preview"
        />
      )}
    </Card>
  );
}
