import { clientSecrets, redactSecrets } from 'rx-advisors/provider-kit';

describe('redactSecrets', () => {
  it('removes the exact secret wherever it appears', () => {
    expect(
      redactSecrets('key=my-custom-token-123 and again my-custom-token-123', [
        'my-custom-token-123',
      ]),
    ).toBe('key=[redacted] and again [redacted]');
  });

  it('removes provider-looking keys, masked ones included, and bearer tokens', () => {
    expect(redactSecrets('Incorrect API key provided: sk-proj-ab12********xy9Z.', [])).toBe(
      'Incorrect API key provided: [redacted].',
    );
    expect(redactSecrets('invalid x-api-key sk-ant-api03-AbC_dEf-123', [])).toBe(
      'invalid x-api-key [redacted]',
    );
    expect(redactSecrets('sent Authorization: Bearer abc.def-123', [])).toBe(
      'sent Authorization: Bearer [redacted]',
    );
  });

  it('leaves ordinary text alone and ignores secrets too short to be keys', () => {
    expect(redactSecrets('the task-list is ready', ['a', '', undefined])).toBe(
      'the task-list is ready',
    );
  });
});

describe('clientSecrets', () => {
  it('reads apiKey and authToken when they are strings', () => {
    expect(clientSecrets({ apiKey: 'k1-0123456789', authToken: 't1-0123456789' })).toEqual([
      'k1-0123456789',
      't1-0123456789',
    ]);
    expect(clientSecrets({ apiKey: null })).toEqual([]);
    expect(clientSecrets(undefined)).toEqual([]);
  });

  it('reads every defaultHeaders and defaultQuery value, whatever shape the headers have', () => {
    const secrets = (defaultHeaders: unknown): string[] =>
      clientSecrets({
        _options: { defaultHeaders, defaultQuery: { key: 'q-secret-1', v: undefined } },
      });
    expect(
      secrets({ 'x-auth': 'h-secret-1', multi: ['h-secret-2', 'h-secret-3'], off: null }),
    ).toEqual(['h-secret-1', 'h-secret-2', 'h-secret-3', 'q-secret-1']);
    expect(secrets(new Headers({ 'x-auth': 'h-secret-1' }))).toEqual(['h-secret-1', 'q-secret-1']);
    expect(secrets([['x-auth', 'h-secret-1']])).toEqual(['h-secret-1', 'q-secret-1']);
    expect(secrets(undefined)).toEqual(['q-secret-1']);
  });
});

describe('redactSecrets with URL-encoded and overlapping secrets', () => {
  it('removes a secret in its URL-encoded and form-encoded forms', () => {
    const secret = 'a b/c+d=e&f';
    expect(redactSecrets(`GET /v1?key=${encodeURIComponent(secret)}`, [secret])).toBe(
      'GET /v1?key=[redacted]',
    );
    expect(
      redactSecrets(`key=${new URLSearchParams({ k: secret }).toString().slice(2)}`, [secret]),
    ).toBe('key=[redacted]');
  });

  it('removes the longer of two overlapping secrets whole', () => {
    expect(redactSecrets('token abcdefgh-ijkl', ['abcdefgh', 'abcdefgh-ijkl'])).toBe(
      'token [redacted]',
    );
  });
});
