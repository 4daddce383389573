import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderInApp, stubApi } from '@/test/render';
import { SwitchButton } from './SwitchButton';

const COMMAND = { sysno: 9, action: 'switch_off', action_name: '分闸', status: 'succeeded', status_name: '成功' };

describe('switch button', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is disabled while the device is offline', () => {
    stubApi({ '/api/CustomerProject/GetFilterProjectList': [] });
    renderInApp(<SwitchButton device={{ sysno: 1, name: '101宿舍', online: 0 }} />);
    expect(screen.getByTestId('switch_off-button')).toBeDisabled();
    expect(screen.getByTestId('switch_on-button')).toBeDisabled();
  });

  it('is disabled, with the reason, for a project shared view-only', async () => {
    stubApi({
      '/api/CustomerProject/GetFilterProjectList': [
        { sysno: 5, name: '共享项目', owner_name: '张三', can_control: false },
        { sysno: 6, name: '可控项目', owner_name: '张三', can_control: true },
      ],
    });
    renderInApp(
      <>
        {[5, 6].map((project) => (
          <div key={project} data-testid={`project-${project}`}>
            <SwitchButton device={{ sysno: project, name: '101宿舍', online: 1, project_sysno: project }} />
          </div>
        ))}
      </>,
    );
    const viewOnly = within(screen.getByTestId('project-5'));
    await waitFor(() => expect(viewOnly.getByTestId('switch_on-button')).toBeDisabled());
    expect(viewOnly.getByTestId('switch_off-button')).toBeDisabled();
    expect(viewOnly.getByTestId('switch-button')).toHaveAttribute('data-view-only', 'true');
    const controlled = within(screen.getByTestId('project-6'));
    expect(controlled.getByTestId('switch_on-button')).toBeEnabled();
    expect(controlled.getByTestId('switch_off-button')).toBeEnabled();
    expect(controlled.getByTestId('switch-button')).not.toHaveAttribute('data-view-only');
    fireEvent.mouseEnter(viewOnly.getByTestId('switch_on-button').closest('.ant-space') as HTMLElement);
    expect(await screen.findByText('仅查看权限，无法控制')).toBeInTheDocument();
  });

  it('disables the action the breaker is already in', () => {
    stubApi({ '/api/CustomerProject/GetFilterProjectList': [] });
    renderInApp(
      <>
        {[1, 0, null].map((state) => (
          <div key={String(state)} data-testid={`state-${state}`}>
            <SwitchButton device={{ sysno: 1, name: '101宿舍', online: 1, switch_state: state }} />
          </div>
        ))}
      </>,
    );
    const buttons = (state: number | null) => {
      const box = within(screen.getByTestId(`state-${state}`));
      return [box.getByTestId('switch_on-button'), box.getByTestId('switch_off-button')];
    };
    expect(buttons(1)[0]).toBeDisabled();
    expect(buttons(1)[1]).toBeEnabled();
    expect(buttons(0)[0]).toBeEnabled();
    expect(buttons(0)[1]).toBeDisabled();
    // An unknown state leaves both actions open.
    expect(buttons(null)[0]).toBeEnabled();
    expect(buttons(null)[1]).toBeEnabled();
  });

  it('asks first, then sends the command and shows the outcome', async () => {
    const { calls } = stubApi({ '/api/CustomerControl/SendCommand': COMMAND, '/api/CustomerProject/GetFilterProjectList': [] });
    const outer = vi.fn();
    renderInApp(
      <div onClick={outer}>
        <SwitchButton device={{ sysno: 7, name: '101宿舍', online: 1, gateway_online: 1 }} />
      </div>,
    );
    fireEvent.click(screen.getByTestId('switch_off-button'));
    expect(await screen.findByText(/确定对“101宿舍”执行分闸操作吗/)).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes('SendCommand'))).toHaveLength(0);
    fireEvent.click(document.querySelector('#switch-confirm') as HTMLElement);
    await waitFor(() => expect(screen.getByTestId('switch-result')).toHaveTextContent('分闸成功'));
    const sent = calls.find((c) => c.url.includes('SendCommand'));
    expect(JSON.parse(String(sent?.init.body))).toEqual({ device_sysno: 7, action: 'switch_off' });
    // The card or row underneath never sees the clicks.
    expect(outer).not.toHaveBeenCalled();
  });

  it('shows the gateway refusal beside the buttons', async () => {
    stubApi({ '/api/CustomerProject/GetFilterProjectList': [] });
    renderInApp(<SwitchButton device={{ sysno: 7, name: '101宿舍', online: 1 }} />);
    fireEvent.click(screen.getByTestId('switch_on-button'));
    await screen.findByText(/执行合闸操作吗/);
    fireEvent.click(document.querySelector('#switch-confirm') as HTMLElement);
    await waitFor(() => expect(screen.getByTestId('switch-result')).toHaveTextContent('接口不存在'));
  });
});
