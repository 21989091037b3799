import { ProviderError } from '../../errors/provider-error.js';
import { toProviderError, type ToProviderErrorOptions } from '../kit/index.js';

/** The marker the AI SDK puts on its `APICallError` (checked without importing the SDK). */
const API_CALL_ERROR_MARKER = Symbol.for('vercel.ai.error.AI_APICallError');

/** The fields of the AI SDK's `APICallError` the bridge reads. */
interface ApiCallErrorLike {
  message: string;
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  isRetryable: boolean;
  data?: unknown;
  cause?: unknown;
}

/**
 * Turns what an AI SDK model threw (or sent as an `error` part) into a `ProviderError`.
 * An `APICallError` for an HTTP error keeps its status, its `isRetryable` and the
 * Retry-After of its response headers; one for a stream that broke after HTTP 200 (or a
 * request that never connected) is judged by its cause, a dropped connection being
 * retryable. The `APICallError` stays the `cause`. Anything else goes through the kit's
 * `toProviderError` (connection failures retryable, the rest not). Secrets are redacted.
 * @internal
 * @param error The thrown value.
 * @param errors The provider name and the secrets to redact.
 * @returns A ProviderError.
 */
export function aiSdkError(error: unknown, errors: ToProviderErrorOptions): ProviderError {
  if (!isApiCallError(error)) return toProviderError(error, errors);
  const status = error.statusCode;
  // The AI SDK also reports a stream that broke after a 200 (or a request that never
  // connected) as an APICallError: judge those by their cause (a dropped connection).
  const httpFailed = status !== undefined && (status < 200 || status >= 300);
  const converted = toProviderError(
    httpFailed
      ? // The kit reads `status`, `headers` and the provider's error body (`error`) from an
        // SDK-shaped error; the AI SDK names them statusCode, responseHeaders and data.
        {
          message: error.message,
          status,
          ...(error.responseHeaders === undefined ? {} : { headers: error.responseHeaders }),
          ...(error.data === undefined ? {} : { error: error.data }),
        }
      : (error.cause ?? { message: error.message }),
    errors,
  );
  const prefix = `${errors.provider}: `;
  const message = converted.message.startsWith(prefix)
    ? converted.message.slice(prefix.length)
    : converted.message;
  return new ProviderError({
    provider: errors.provider,
    message,
    ...(httpFailed ? { status } : {}),
    // The provider package's verdict counts (it may retry what the status alone would not).
    retryable: error.isRetryable || (!httpFailed && converted.retryable),
    ...(converted.retryAfter === undefined ? {} : { retryAfter: converted.retryAfter }),
    cause: error,
  });
}

function isApiCallError(error: unknown): error is ApiCallErrorLike {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[API_CALL_ERROR_MARKER] === true
  );
}
