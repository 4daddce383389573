import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderInApp } from '@/test/render';
import { saveFile } from '@/utils/saveFile';
import { ExportListButton } from './ExportListButton';

vi.mock('@/utils/saveFile', () => ({ saveFile: vi.fn() }));

describe('ExportListButton', () => {
  beforeEach(() => vi.mocked(saveFile).mockClear());

  it('asks for the workbook and saves it under the name the server gave', async () => {
    const blob = new Blob(['xlsx']);
    const download = vi.fn().mockResolvedValue({ blob, filename: '告警列表_20261126-120000.xlsx' });
    renderInApp(<ExportListButton download={download} fallbackName="告警列表" />);
    fireEvent.click(await screen.findByRole('button', { name: /导出 Excel/ }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledWith(blob, '告警列表_20261126-120000.xlsx'));
    expect(download).toHaveBeenCalledTimes(1);
  });

  it('falls back to the list name, and saves nothing when the export is refused', async () => {
    const blob = new Blob(['xlsx']);
    const download = vi.fn().mockResolvedValueOnce({ blob, filename: null }).mockRejectedValueOnce(new Error('请缩小筛选范围'));
    renderInApp(<ExportListButton download={download} fallbackName="设备列表" testId="device-export" />);
    const button = await screen.findByTestId('device-export');
    fireEvent.click(button);
    await waitFor(() => expect(saveFile).toHaveBeenCalledWith(blob, '设备列表.xlsx'));
    fireEvent.click(button);
    await waitFor(() => expect(download).toHaveBeenCalledTimes(2));
    expect(saveFile).toHaveBeenCalledTimes(1);
  });
});
