import type { AttributeValue, Attributes } from '@opentelemetry/api';

const isPrimitive = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * A value as an OpenTelemetry attribute value: strings, numbers and booleans as they are
 * (strings cut to `maxLength`), arrays of one primitive type as they are, anything else as
 * its JSON text (cut to `maxLength`); `undefined` when it has none (a function, a symbol,
 * a cycle, a throwing `toJSON`): such a value is dropped, never thrown.
 * @internal
 * @example
 * ```ts
 * toAttributeValue({ city: 'Paris' }, 100); // '{"city":"Paris"}'
 * ```
 * @param value Any value.
 * @param maxLength The longest string kept.
 * @returns The attribute value, or `undefined` to drop it.
 */
export function toAttributeValue(value: unknown, maxLength: number): AttributeValue | undefined {
  if (typeof value === 'string') return cut(value, maxLength);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value) && value.length > 0 && isHomogeneous(value)) {
    return value.map((item: unknown) =>
      typeof item === 'string' ? cut(item, maxLength) : item,
    ) as AttributeValue;
  }
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === 'string' ? cut(text, maxLength) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every entry of `record` that has an attribute value (see {@link toAttributeValue}).
 * @internal
 * @example
 * ```ts
 * toAttributes({ userId: 7, tags: ['a'], fn: () => 1 }, 100); // { userId: 7, tags: ['a'] }
 * ```
 * @param record Any object; a non-object gives no attributes.
 * @param maxLength The longest string kept.
 * @returns The attributes.
 */
export function toAttributes(record: unknown, maxLength: number): Attributes {
  const attributes: Attributes = {};
  if (typeof record !== 'object' || record === null) return attributes;
  let keys: string[];
  try {
    keys = Object.keys(record);
  } catch {
    return attributes; // A proxy that refuses to list its keys.
  }
  for (const key of keys) {
    try {
      const converted = toAttributeValue((record as Record<string, unknown>)[key], maxLength);
      if (converted !== undefined) attributes[key] = converted;
    } catch {
      // A throwing getter: that entry is dropped.
    }
  }
  return attributes;
}

function isHomogeneous(values: readonly unknown[]): boolean {
  const first = values[0];
  if (!isPrimitive(first)) return false;
  const type = typeof first;
  return values.every((item) => typeof item === type);
}

function cut(text: string, maxLength: number): string {
  return text.length <= maxLength ? text : `${text.slice(0, maxLength)}…[truncated]`;
}
