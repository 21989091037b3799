import { ProviderError } from '../../errors/provider-error.js';
import { ProviderProtocolError } from '../../errors/provider-protocol-error.js';
import { redactSecrets } from './redact-secrets.js';
import { retryAfterFromHeaders } from './retry-after-from-headers.js';
import { StreamDataError } from './stream-data-error.js';

/**
 * Options of {@link toProviderError}.
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { clientSecrets, type ToProviderErrorOptions } from 'rx-advisors/provider-kit';
 *
 * const errors: ToProviderErrorOptions = { provider: 'openai', secrets: clientSecrets(new OpenAI()) };
 * ```
 */
export interface ToProviderErrorOptions {
  /** The provider name reported by the error. */
  provider: string;
  /** Secrets (what `clientSecrets(client)` returns) that must never appear in the message. */
  secrets: readonly string[];
}

/** HTTP statuses the official SDKs themselves retry. */
const RETRYABLE_STATUSES = new Set([408, 409, 429]);
/** Error types or codes, sent in a stream's error event, that a later try may not hit. */
const RETRYABLE_TYPES = new Set([
  'overloaded_error',
  'api_error',
  'rate_limit_error',
  'rate_limit_exceeded',
  'server_error',
  'timeout_error',
  'incomplete_stream',
]);
/** What Node and undici say when a connection fails or drops. */
const CONNECTION_PATTERN =
  /terminated|other side closed|socket hang up|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|fetch failed|Connection error|timed out/i;

interface SdkErrorLike {
  status?: unknown;
  headers?: unknown;
  type?: unknown;
  code?: unknown;
  error?: unknown;
  message?: unknown;
  cause?: unknown;
}

/**
 * Turns whatever an SDK call or its stream threw into a {@link ProviderError}: HTTP errors
 * (with status; 408/409/429/5xx retryable; `retryAfter` from the response's `retry-after-ms`
 * or `retry-after` header), connection failures and resets (retryable),
 * error events inside the stream (retryable when the provider's type says so), malformed
 * stream data (not retryable) and a translator's `StreamDataError` (a non-retryable
 * `ProviderProtocolError`). The SDK's error becomes the `cause`; the secrets, `sk-…` keys
 * and bearer tokens are redacted from the message.
 *
 * @example
 * ```ts
 * import { toProviderError } from 'rx-advisors/provider-kit';
 *
 * const error = toProviderError(Object.assign(new Error('Too many requests'), { status: 429 }), {
 *   provider: 'acme',
 *   secrets: [],
 * });
 * error.retryable; // true
 * ```
 * @param error The thrown value.
 * @param options The provider name and the secrets to redact.
 * @returns A ProviderError (the same one when `error` already is one).
 */
export function toProviderError(error: unknown, options: ToProviderErrorOptions): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const { provider, secrets } = options;
  if (error instanceof StreamDataError) {
    const { value } = error;
    return new ProviderProtocolError({
      provider,
      field: error.field,
      value: typeof value === 'string' ? redactSecrets(value, secrets) : value,
      expected: error.expected,
      cause: error,
    });
  }
  const make = (
    message: string,
    status: number | undefined,
    retryable: boolean,
    retryAfter?: number,
  ): ProviderError =>
    new ProviderError({
      provider,
      message: redactSecrets(message, secrets),
      ...(status === undefined ? {} : { status }),
      retryable,
      ...(retryAfter === undefined ? {} : { retryAfter }),
      cause: error,
    });

  const sdkError = (
    typeof error === 'object' && error !== null ? error : { message: String(error) }
  ) as SdkErrorLike;
  const detail = errorDetail(sdkError);
  if (typeof sdkError.status === 'number') {
    const status = sdkError.status;
    const retryable = RETRYABLE_STATUSES.has(status) || status >= 500;
    const retryAfter = retryAfterFromHeaders(sdkError.headers, Date.now());
    return make(
      `the request failed with HTTP ${status}: ${detail.message}`,
      status,
      retryable,
      retryAfter,
    );
  }
  if (error instanceof SyntaxError) {
    return make(`the stream sent malformed data (${error.message})`, undefined, false);
  }
  if (detail.type !== undefined) {
    return make(
      `the stream reported an error (${detail.type}): ${detail.message}`,
      undefined,
      RETRYABLE_TYPES.has(detail.type),
    );
  }
  if (isConnectionFailure(error)) {
    return make(
      `the connection failed or was dropped (${describeChain(error)}); trying again may help`,
      undefined,
      true,
    );
  }
  return make(`the call failed: ${detail.message}`, undefined, false);
}

/**
 * The provider's own error type and message: OpenAI puts them in `error` (`{ message,
 * type, code }`), Anthropic in `error.error` (`{ type: 'error', error: { type, message } }`).
 */
function errorDetail(error: SdkErrorLike): { type: string | undefined; message: string } {
  const body = asRecord(error.error);
  const inner = asRecord(body?.['error']);
  const type =
    asString(inner?.['type']) ??
    asString(body?.['code']) ??
    asString(body?.['type']) ??
    asString(error.type);
  const message =
    asString(inner?.['message']) ??
    asString(body?.['message']) ??
    asString(error.message) ??
    'no message';
  return { type: type === 'error' ? undefined : type, message };
}

function isConnectionFailure(error: unknown): boolean {
  return CONNECTION_PATTERN.test(describeChain(error)) || hasName(error, 'APIConnectionError');
}

function hasName(error: unknown, name: string): boolean {
  const ctor = (error as { constructor?: { name?: unknown } } | null)?.constructor;
  return typeof ctor?.name === 'string' && ctor.name.startsWith(name);
}

/** The messages and codes of an error and its causes, e.g. `terminated: other side closed`. */
function describeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const record = current as SdkErrorLike;
    const message = asString(record.message);
    if (message !== undefined && message !== '') parts.push(message);
    const code = asString(record.code);
    if (code !== undefined) parts.push(code);
    current = record.cause;
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
