import { DEFAULT_ENV, ENVIRONMENTS, envConfig, imageUrl, selectEnv } from './env';

describe('environment config', () => {
  it('lists the development, test, production and on-premise environments', () => {
    expect(Object.keys(ENVIRONMENTS)).toEqual(
      expect.arrayContaining(['localDev', 'dev-release', 'dev', 'test', 'prod', 'onprem-campus', 'onprem-industrial-park']),
    );
    for (const env of Object.values(ENVIRONMENTS)) {
      expect(env).toEqual({ apiBaseUrl: expect.any(String), imageBaseUrl: expect.any(String), gatewayTypeId: expect.any(Number) });
    }
  });

  it('selects production, served from the same origin', () => {
    expect(DEFAULT_ENV).toBe('prod');
    expect(selectEnv(undefined)).toBe('prod');
    expect(selectEnv('nonsense')).toBe('prod');
    expect(selectEnv('localDev')).toBe('localDev');
    expect(envConfig.apiBaseUrl).toBe('');
  });

  it('prefixes image paths with the image base URL and leaves absolute URLs alone', () => {
    expect(imageUrl('/api/brand/assets/logo-0.svg')).toBe('/api/brand/assets/logo-0.svg');
    expect(imageUrl('https://cdn.example/logo.png')).toBe('https://cdn.example/logo.png');
    expect(imageUrl(null)).toBe('');
  });
});
