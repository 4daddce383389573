import { fireEvent, render, screen } from '@testing-library/react';
import { SlotStrip } from './SlotStrip';

const FLAT = '2'.repeat(48);

function cell(slot: number): HTMLElement {
  const found = document.querySelector<HTMLElement>(`[data-slot="${slot}"]`);
  if (!found) throw new Error(`no cell ${slot}`);
  return found;
}

describe('the slot strip', () => {
  beforeEach(() => {
    // jsdom has no layout: the cell under the pointer is the one the test names by its x.
    document.elementFromPoint = (x: number) => cell(x);
    HTMLElement.prototype.setPointerCapture = () => undefined;
  });

  it('shows 48 cells coloured by period, described in words', () => {
    render(<SlotStrip value={'3'.repeat(16) + '2'.repeat(32)} readOnly />);
    expect(document.querySelectorAll('[data-slot]')).toHaveLength(48);
    expect(cell(0).dataset.period).toBe('3');
    expect(cell(16)).toHaveAttribute('aria-label', '08:00–08:30 平');
    expect(screen.getByText('00:00–08:00 谷；08:00–24:00 平')).toBeInTheDocument();
  });

  it('paints a dragged run with the chosen period, leaving no gaps however fast the drag', () => {
    const onChange = vi.fn();
    render(<SlotStrip value={FLAT} onChange={onChange} testId="strip" />);
    fireEvent.click(screen.getByTestId('strip-brush-3'));
    const strip = cell(0).closest('[class*="strip"]') as HTMLElement;
    fireEvent.pointerDown(strip, { clientX: 2, clientY: 0, button: 0, pointerId: 1 });
    fireEvent.pointerMove(strip, { clientX: 6, clientY: 0, pointerId: 1 });
    fireEvent.pointerUp(strip, { pointerId: 1 });
    fireEvent.pointerMove(strip, { clientX: 20, clientY: 0, pointerId: 1 });
    const painted = onChange.mock.calls.at(-1)?.[0];
    expect(painted).toBe('22' + '33333' + '2'.repeat(41));
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('paints from the keyboard, and not at all when read-only', () => {
    const onChange = vi.fn();
    const { rerender } = render(<SlotStrip value={FLAT} onChange={onChange} testId="strip" />);
    fireEvent.click(cell(47), { detail: 0 });
    expect(onChange).toHaveBeenLastCalledWith('2'.repeat(47) + '1');
    onChange.mockClear();
    rerender(<SlotStrip value={FLAT} onChange={onChange} readOnly />);
    const strip = cell(0).closest('[class*="strip"]') as HTMLElement;
    fireEvent.pointerDown(strip, { clientX: 3, clientY: 0, button: 0, pointerId: 1 });
    expect(onChange).not.toHaveBeenCalled();
  });
});
