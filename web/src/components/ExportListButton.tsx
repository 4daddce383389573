import { DownloadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button } from 'antd';
import type { DownloadedFile } from '@/api/core';
import { common } from '@/locales/zh-CN';
import { saveFile } from '@/utils/saveFile';

interface Props {
  /** Asks for the workbook of every row the screen's current filters keep (paging is ignored). */
  download: () => Promise<DownloadedFile>;
  /** The file's name when the server gives none. */
  fallbackName: string;
  testId?: string;
}

/** 导出 Excel on a list screen: saves the server's workbook; a refusal's message is shown by the client. */
export function ExportListButton({ download, fallbackName, testId = 'export-list' }: Props) {
  const exporting = useMutation({
    mutationFn: download,
    onSuccess: ({ blob, filename }) => saveFile(blob, filename ?? `${fallbackName}.xlsx`),
  });
  return (
    <Button icon={<DownloadOutlined />} loading={exporting.isPending} onClick={() => exporting.mutate()} data-testid={testId}>
      {common.exportExcel}
    </Button>
  );
}
