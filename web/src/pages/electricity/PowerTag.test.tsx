import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { PowerTag } from './columns';

describe('PowerTag', () => {
  it('says the breaker is off when billing supplies the room but it was switched off by hand', () => {
    render(<PowerTag account={{ power: 'on', power_name: '供电', keep_power: false, switch_state: 0 }} />);
    expect(screen.getByText('供电')).toBeInTheDocument();
    expect(screen.getByText('已分闸')).toBeInTheDocument();
  });

  it('adds nothing while the breaker is on, or when billing cut it', () => {
    const { rerender } = render(<PowerTag account={{ power: 'on', power_name: '供电', keep_power: true, switch_state: 1 }} />);
    expect(screen.queryByText('已分闸')).toBeNull();
    expect(screen.getByText('保电')).toBeInTheDocument();
    rerender(<PowerTag account={{ power: 'cut', power_name: '已断电', keep_power: false, switch_state: 0 }} />);
    expect(screen.queryByText('已分闸')).toBeNull();
  });
});
