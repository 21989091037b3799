import { ProviderError } from '../../../lib/errors/provider-error.js';
import { retryAfterFromHeaders } from '../../../lib/providers/kit/retry-after-from-headers.js';
import { toProviderError } from '../../../lib/providers/kit/to-provider-error.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('retryAfterFromHeaders', () => {
  it.each([
    ['retry-after-ms in milliseconds', { 'retry-after-ms': '30' }, 30],
    ['fractional retry-after-ms', { 'retry-after-ms': '12.5' }, 12.5],
    ['retry-after in seconds', { 'retry-after': '2' }, 2000],
    ['fractional retry-after seconds', { 'retry-after': '0.25' }, 250],
    ['retry-after-ms before retry-after', { 'retry-after': '20', 'retry-after-ms': '1500' }, 1500],
    [
      'retry-after when retry-after-ms is invalid',
      { 'retry-after-ms': 'soon', 'retry-after': '1' },
      1000,
    ],
    ['an HTTP date', { 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, 7000],
    ['an HTTP date in the past as 0', { 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, 0],
    ['padding around the value', { 'retry-after': ' 3 ' }, 3000],
  ])('reads %s', (_case, record: Record<string, string>, expected) => {
    expect(retryAfterFromHeaders(new Headers(record), NOW)).toBe(expected);
    expect(retryAfterFromHeaders(record, NOW)).toBe(expected);
  });

  it.each([
    ['no header', {}],
    ['a negative number', { 'retry-after': '-5' }],
    ['garbage', { 'retry-after': 'later, maybe' }],
    ['an empty value', { 'retry-after': '' }],
    ['an exponent', { 'retry-after-ms': '1e3' }],
  ])('gives undefined for %s', (_case, record: Record<string, string>) => {
    expect(retryAfterFromHeaders(new Headers(record), NOW)).toBeUndefined();
    expect(retryAfterFromHeaders(record, NOW)).toBeUndefined();
  });

  it('reads a record case-insensitively and takes the first of repeated values', () => {
    expect(retryAfterFromHeaders({ 'Retry-After': '4' }, NOW)).toBe(4000);
    expect(retryAfterFromHeaders({ 'retry-after-ms': ['40', '90'] }, NOW)).toBe(40);
  });

  it('gives undefined when there are no headers', () => {
    expect(retryAfterFromHeaders(undefined, NOW)).toBeUndefined();
    expect(retryAfterFromHeaders(null, NOW)).toBeUndefined();
    expect(retryAfterFromHeaders('retry-after: 3', NOW)).toBeUndefined();
  });
});

describe('toProviderError reads Retry-After', () => {
  const options = { provider: 'test', secrets: [] };
  /** Shaped like the SDKs' APIError: status, parsed body and a Headers object. */
  const httpError = (status: number, headers: Record<string, string>): Error =>
    Object.assign(new Error(`${status}`), {
      status,
      error: { message: 'slow down' },
      headers: new Headers(headers),
    });

  it('fills retryAfter from the HTTP error’s headers', () => {
    const error = toProviderError(httpError(429, { 'retry-after-ms': '30' }), options);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfter: 30 });
    expect(toProviderError(httpError(503, { 'retry-after': '3' }), options).retryAfter).toBe(3000);
  });

  it('leaves retryAfter undefined without a usable header, or without an HTTP status', () => {
    expect(toProviderError(httpError(429, {}), options).retryAfter).toBeUndefined();
    expect(
      toProviderError(httpError(429, { 'retry-after': 'x' }), options).retryAfter,
    ).toBeUndefined();
    const dropped = Object.assign(new TypeError('terminated'), {
      headers: new Headers({ 'retry-after': '3' }),
    });
    expect(toProviderError(dropped, options)).toMatchObject({
      retryable: true,
      retryAfter: undefined,
    });
  });
});

describe('ProviderError.retryAfter', () => {
  it('keeps a valid wait and drops anything else', () => {
    const make = (retryAfter: number) =>
      new ProviderError({ provider: 'p', message: 'm', retryAfter });
    expect(make(0).retryAfter).toBe(0);
    expect(make(1500).retryAfter).toBe(1500);
    expect(make(-1).retryAfter).toBeUndefined();
    expect(make(Number.NaN).retryAfter).toBeUndefined();
    expect(make(Infinity).retryAfter).toBeUndefined();
    expect(new ProviderError({ provider: 'p', message: 'm' }).retryAfter).toBeUndefined();
  });
});
