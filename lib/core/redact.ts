/** Property names that hold secrets: API keys, tokens, passwords, auth headers, cookies. */
const SECRET_KEY = /key|token|secret|passw|authorization|auth|header|cookie|credential/i;
/** Token counts (`maxTokens`, `max_completion_tokens`, …) are numbers, not secrets. */
const TOKEN_COUNT_KEY = /^(max|budget|thinking)_?(budget_?|completion_?|output_?)?tokens$/i;

/** What {@link redact} writes in place of a secret, a cycle, a deep subtree or a throwing getter. */
const RedactionMarks = {
  secret: '[redacted]',
  circular: '[circular]',
  truncated: '[truncated]',
  unreadable: '[unreadable]',
} as const;

type Target = Record<string, unknown> | unknown[];

/** A value still to copy, and where its copy goes; or the end of an object's subtree. */
type Frame =
  | {
      readonly kind: 'copy';
      readonly source: unknown;
      readonly depth: number;
      readonly target: Target;
      readonly key: string;
    }
  | { readonly kind: 'done'; readonly source: object };

/**
 * A copy of `value` in which every property whose name looks like a secret (API keys,
 * tokens, passwords, headers, cookies) is replaced by `'[redacted]'`, at any depth.
 *
 * Iterative, so no nesting overflows the stack; each object is visited once, so the cost
 * is linear in the size of `value` even when subtrees are shared (they stay shared in the
 * copy). A reference back to an object on the current path becomes `'[circular]'`,
 * objects nested deeper than `maxDepth` become `'[truncated]'` (never their raw value),
 * and an object whose properties cannot be read (a throwing getter or proxy) becomes
 * `'[unreadable]'`.
 *
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * redact({ extra: { headers: { Authorization: 'Bearer sk-1' } }, maxTokens: 9 }, 32);
 * // { extra: { headers: '[redacted]' }, maxTokens: 9 }
 * ```
 * @param value Any JSON-like value.
 * @param maxDepth Objects deeper than this (the root is depth 0) are summarized.
 * @returns The redacted copy.
 * @internal
 */
export function redact(value: unknown, maxDepth: number): unknown {
  const root: Target = {};
  const copies = new Map<object, unknown>();
  const onPath = new Set<object>();
  const stack: Frame[] = [{ kind: 'copy', source: value, depth: 0, target: root, key: 'value' }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    if (frame.kind === 'done') {
      onPath.delete(frame.source);
      continue;
    }
    const { source, depth, target, key } = frame;
    const copy = copyShallow(source, depth, maxDepth, copies, onPath);
    assign(target, key, copy.value);
    if (copy.children.length === 0 || typeof source !== 'object' || source === null) continue;
    onPath.add(source);
    stack.push({ kind: 'done', source });
    for (let i = copy.children.length - 1; i >= 0; i--) stack.push(copy.children[i]);
  }
  return root['value'];
}

/** The copy of one value, with its children still to copy. */
function copyShallow(
  source: unknown,
  depth: number,
  maxDepth: number,
  copies: Map<object, unknown>,
  onPath: Set<object>,
): { value: unknown; children: Frame[] } {
  if (source === null || typeof source !== 'object') return { value: source, children: [] };
  if (onPath.has(source)) return { value: RedactionMarks.circular, children: [] };
  if (copies.has(source)) return { value: copies.get(source), children: [] };
  if (depth > maxDepth) return { value: RedactionMarks.truncated, children: [] };
  let entries: [string, unknown][];
  try {
    entries = Object.entries(source);
  } catch {
    return { value: RedactionMarks.unreadable, children: [] };
  }
  const target: Target = Array.isArray(source) ? new Array<unknown>(source.length) : {};
  copies.set(source, target);
  const children: Frame[] = [];
  for (const [key, item] of entries) {
    if (isSecret(key, item)) {
      assign(target, key, RedactionMarks.secret);
    } else if (item === null || typeof item !== 'object') {
      // a leaf: copied as it is, with no frame of its own (most option values)
      assign(target, key, item);
    } else {
      // reserve the key now, so the copy keeps the source's key order
      assign(target, key, undefined);
      children.push({ kind: 'copy', source: item, depth: depth + 1, target, key });
    }
  }
  return { value: target, children };
}

function isSecret(key: string, value: unknown): boolean {
  return SECRET_KEY.test(key) && !(typeof value === 'number' && TOKEN_COUNT_KEY.test(key));
}

function assign(target: Target, key: string, value: unknown): void {
  if (key !== '__proto__') {
    (target as Record<string, unknown>)[key] = value;
    return;
  }
  // defineProperty: a "__proto__" key stays an own property instead of setting the prototype
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
