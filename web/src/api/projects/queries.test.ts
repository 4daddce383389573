import { controlChecker } from './queries';

describe('controlChecker', () => {
  const options = [
    { sysno: 1, can_control: true },
    { sysno: 2, can_control: false },
  ];

  it('refuses only the projects listed as view-only', () => {
    const canControl = controlChecker(options);
    expect(canControl(1)).toBe(true);
    expect(canControl(2)).toBe(false);
  });

  it('leaves projects it does not know (yet) to the server', () => {
    expect(controlChecker(options)(3)).toBe(true);
    expect(controlChecker(undefined)(2)).toBe(true);
    expect(controlChecker(options)(null)).toBe(true);
  });
});
