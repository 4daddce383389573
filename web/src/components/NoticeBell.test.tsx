import { render, screen } from '@testing-library/react';
import { badgeText, BADGE_CAP, NoticeBell } from './NoticeBell';

describe('notice bell badge', () => {
  it('caps the count at 99', () => {
    expect(BADGE_CAP).toBe(99);
    expect(badgeText(0)).toBe('');
    expect(badgeText(7)).toBe('7');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(4321)).toBe('99+');
  });

  it('renders 99+ above the cap', () => {
    render(<NoticeBell count={150} onOpen={() => {}} />);
    expect(screen.getByTestId('notice-badge')).toHaveTextContent('99+');
  });

  it('renders the exact count up to the cap', () => {
    render(<NoticeBell count={12} onOpen={() => {}} />);
    expect(screen.getByTestId('notice-badge').textContent).toContain('12');
  });
});
