const SECRET_KEY = /key|token|secret|password|authorization|auth|header|cookie|credential/i;

/**
 * A copy of `value` in which every property whose name looks like a secret (API keys,
 * tokens, passwords, headers, cookies) is replaced by `'[redacted]'`, at any depth.
 * @internal
 * @param value Any JSON-like value.
 * @returns The redacted copy.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_KEY.test(key) ? '[redacted]' : redact(item, depth + 1);
  }
  return copy;
}
