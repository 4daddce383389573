import { render, screen } from '@testing-library/react';
import ComingSoon from './ComingSoon';

describe('ComingSoon', () => {
  it('says honestly that the feature is not available yet', () => {
    render(<ComingSoon title="分享管理" />);
    expect(screen.getByTestId('coming-soon')).toHaveTextContent('分享管理：该功能尚未开放');
    expect(screen.getByTestId('coming-soon')).toHaveTextContent('此功能将在后续版本中提供');
  });
});
