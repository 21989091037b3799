import { ProviderError } from '../../../lib/errors/provider-error.js';
import { ProviderProtocolError } from '../../../lib/errors/provider-protocol-error.js';
import { StreamDataError } from '../../../lib/providers/kit/stream-data-error.js';
import { StreamEventError } from '../../../lib/providers/kit/stream-event-error.js';
import { toProviderError } from '../../../lib/providers/kit/to-provider-error.js';

const options = { provider: 'test', secrets: ['sk-live-secret-value'] };

/** Shaped like the SDKs' APIError: a status and the parsed error body. */
function httpError(status: number, body: unknown): Error {
  return Object.assign(new Error(`${status} ${JSON.stringify(body)}`), { status, error: body });
}

describe('toProviderError', () => {
  it('returns a ProviderError unchanged', () => {
    const error = new ProviderError({ provider: 'x', message: 'm' });
    expect(toProviderError(error, options)).toBe(error);
  });

  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [529, true],
    [400, false],
    [401, false],
    [422, false],
  ])('classifies HTTP %i as retryable %s and keeps the SDK error as cause', (status, retryable) => {
    const cause = httpError(status, { message: 'nope' });
    const error = toProviderError(cause, options);
    expect(error).toMatchObject({ provider: 'test', status, retryable });
    expect(error.message).toBe(`test: the request failed with HTTP ${status}: nope`);
    expect(error.cause).toBe(cause);
  });

  it('reads the nested Anthropic error body', () => {
    const error = toProviderError(
      httpError(400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }),
      options,
    );
    expect(error.message).toBe('test: the request failed with HTTP 400: bad');
  });

  it('classifies a dropped connection (undici "terminated") as retryable', () => {
    const cause = Object.assign(new TypeError('terminated'), {
      cause: new Error('other side closed'),
    });
    const error = toProviderError(cause, options);
    expect(error).toMatchObject({ status: undefined, retryable: true });
    expect(error.message).toContain('terminated: other side closed');
  });

  it('classifies stream error events by their type', () => {
    expect(
      toProviderError(new StreamEventError('overloaded_error', 'Overloaded', {}), options)
        .retryable,
    ).toBe(true);
    expect(
      toProviderError(new StreamEventError('invalid_prompt', 'No', {}), options).retryable,
    ).toBe(false);
  });

  it('classifies malformed data as not retryable', () => {
    const error = toProviderError(new SyntaxError('Unexpected token'), options);
    expect(error).toMatchObject({ retryable: false });
    expect(error.message).toContain('malformed');
  });

  it('treats an unknown failure as not retryable and redacts secrets from it', () => {
    const error = toProviderError(new Error('boom with sk-live-secret-value inside'), options);
    expect(error).toMatchObject({ status: undefined, retryable: false });
    expect(error.message).toBe('test: the call failed: boom with [redacted] inside');
  });

  it('turns a StreamDataError into a non-retryable ProviderProtocolError without secrets', () => {
    const error = toProviderError(
      new StreamDataError('tool.index', 'sk-live-secret-value', 'a non-negative integer'),
      options,
    );
    expect(ProviderProtocolError.isInstance(error)).toBe(true);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'test', retryable: false, field: 'tool.index' });
    expect(error.message).toBe(
      'test: the stream sent "[redacted]" as tool.index, expected a non-negative integer; ' +
        "the server does not follow the provider's protocol",
    );
  });

  it('quotes at most 60 characters of a huge bad value', () => {
    const error = toProviderError(
      new StreamDataError('f', 'x'.repeat(10_000), 'a number'),
      options,
    );
    expect(error.message.length).toBeLessThan(200);
  });
});
