import { useEffect } from 'react';
import { Col, Form, Input, InputNumber, Modal, Row } from 'antd';
import { useSaveProject } from '@/api/projects/queries';
import type { ProjectCreate, ProjectRead } from '@/api/schema';
import { useBrand } from '@/brands/BrandContext';
import { projects } from '@/locales/zh-CN';
import { MapPointPicker } from './MapPointPicker';
import { useMessage } from '@/components/Feedback';
import { phoneRule } from '@/utils/phone';

interface Props {
  open: boolean;
  /** The project being edited, or null for a new one. */
  project: ProjectRead | null;
  onClose: () => void;
}

type Values = ProjectCreate;

/** Creates or edits a project; the map point only where the brand has the `map` flag. */
export function ProjectModal({ open, project, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const { flags } = useBrand();
  const message = useMessage();
  const save = useSaveProject();
  const longitude = Form.useWatch('longitude', form);
  const latitude = Form.useWatch('latitude', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (project) form.setFieldsValue(project);
  }, [open, project, form]);

  async function submit() {
    const values = await form.validateFields();
    const blank = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);
    await save.mutateAsync({
      sysno: project?.sysno,
      name: values.name.trim(),
      address: blank(values.address),
      contact_name: blank(values.contact_name),
      contact_phone: blank(values.contact_phone),
      remark: blank(values.remark),
      // Without the map feature the stored point is kept as it is.
      longitude: flags.map ? (values.longitude ?? null) : (project?.longitude ?? null),
      latitude: flags.map ? (values.latitude ?? null) : (project?.latitude ?? null),
    });
    message.success(projects.saved);
    onClose();
  }

  return (
    <Modal
      open={open}
      title={project ? projects.edit : projects.add}
      onCancel={onClose}
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={save.isPending}
      destroyOnHidden
      width={620}
    >
      <Form form={form} layout="vertical" name="project-form" preserve={false}>
        <Form.Item name="name" label={projects.name} rules={[{ required: true, whitespace: true, message: projects.nameRequired }, { max: 64 }]}>
          <Input maxLength={64} showCount />
        </Form.Item>
        <Form.Item name="address" label={projects.address} rules={[{ max: 255 }]}>
          <Input maxLength={255} showCount />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="contact_name" label={projects.contactName} rules={[{ max: 64 }]}>
              <Input maxLength={64} showCount />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="contact_phone"
              label={projects.contactPhone}
              rules={[phoneRule()]}
            >
              <Input maxLength={32} showCount placeholder={projects.phonePlaceholder} />
            </Form.Item>
          </Col>
        </Row>
        {flags.map && (
          <Form.Item label={projects.mapPoint} extra={projects.pickHint} style={{ marginBottom: 12 }}>
            <Row gutter={12} style={{ marginBottom: 8 }}>
              <Col span={12}>
                <Form.Item name="longitude" noStyle rules={[{ type: 'number', min: -180, max: 180, message: projects.longitudeRange }]}>
                  <InputNumber style={{ width: '100%' }} prefix={projects.longitude} step={0.0001} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="latitude" noStyle rules={[{ type: 'number', min: -90, max: 90, message: projects.latitudeRange }]}>
                  <InputNumber style={{ width: '100%' }} prefix={projects.latitude} step={0.0001} />
                </Form.Item>
              </Col>
            </Row>
            <MapPointPicker
              value={typeof longitude === 'number' && typeof latitude === 'number' ? { longitude, latitude } : null}
              onChange={(point) => form.setFieldsValue({ longitude: point?.longitude ?? null, latitude: point?.latitude ?? null })}
            />
          </Form.Item>
        )}
        <Form.Item name="remark" label={projects.remark} rules={[{ max: 500 }]}>
          <Input.TextArea rows={2} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
