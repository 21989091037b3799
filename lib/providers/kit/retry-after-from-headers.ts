/** A plain number of seconds (or milliseconds): digits, at most one decimal point. */
const NUMBER_PATTERN = /^\d+(?:\.\d+)?$/;
/** Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with a day name. */
const HTTP_DATE_PATTERN = /^[A-Za-z]{3}/;

/**
 * How long a failed response asked the client to wait, in milliseconds: `retry-after-ms`
 * (milliseconds, sent by OpenAI) first, else `retry-after` as seconds or as an HTTP date
 * (RFC 9110; a date in the past means 0). `headers` is what the SDK's `APIError.headers`
 * holds: a fetch `Headers` object (openai 6, @anthropic-ai/sdk 1) or a plain record of
 * lower- or mixed-case names (older SDKs and hand-made errors).
 * @internal
 * @param headers The response headers, in any of those shapes; anything else gives `undefined`.
 * @param now The current time in epoch milliseconds, for the HTTP-date form.
 * @returns The wait in milliseconds, or `undefined` when no header holds a valid value.
 */
export function retryAfterFromHeaders(headers: unknown, now: number): number | undefined {
  const read = headerReader(headers);
  if (read === undefined) return undefined;
  const millis = read('retry-after-ms')?.trim();
  if (millis !== undefined && NUMBER_PATTERN.test(millis)) return Number(millis);
  const value = read('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (NUMBER_PATTERN.test(value)) return Number(value) * 1000;
  // Date.parse alone would read '-5' as the year -5.
  const date = HTTP_DATE_PATTERN.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function headerReader(headers: unknown): ((name: string) => string | undefined) | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const { get } = headers as { get?: unknown };
  if (typeof get === 'function') {
    return (name) => {
      const value: unknown = get.call(headers, name);
      return typeof value === 'string' ? value : undefined;
    };
  }
  const record = headers as Record<string, unknown>;
  return (name) => {
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() !== name) continue;
      const value = record[key];
      if (typeof value === 'string') return value;
      // Node's IncomingHttpHeaders may hold repeated headers as an array: the first counts.
      if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
    }
    return undefined;
  };
}
