/**
 * Whether `value` is a URL a browser may open as a link and a provider may fetch: a
 * string starting with `http://` or `https://` (any case). Everything else — `javascript:`,
 * `data:`, `file:`, relative paths — is not: media by URL, sources and UI file parts all
 * use this one rule, so no other scheme reaches a page as a link or a provider as a fetch.
 * @example
 * ```ts
 * import { isWebUrl } from 'rx-advisors';
 * isWebUrl('https://example.com/a.png'); // true
 * isWebUrl('javascript:alert(1)'); // false
 * ```
 * @param value Anything.
 * @returns Whether it is an http(s) URL.
 */
export function isWebUrl(value: unknown): value is string {
  return typeof value === 'string' && WEB_URL.test(value);
}

const WEB_URL = /^https?:\/\//i;
