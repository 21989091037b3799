import { clientSecrets, redactSecrets } from '../../../lib/providers/shared/redact-secrets.js';

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
});
