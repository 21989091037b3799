/**
 * How deeply a JSON value nests (objects and arrays), counted without recursion and
 * without walking past `limit + 1`: a hostile server's schema nested 100,000 levels deep
 * costs no more than one `limit` deep, and never overflows the stack (ajv would).
 * @internal
 * @example
 * ```ts
 * schemaDepth({ type: 'object', properties: { a: { type: 'string' } } }, 64); // 3
 * ```
 * @param value A JSON value.
 * @param limit The depth past which counting stops.
 * @returns The depth, or `limit + 1` when it is deeper than `limit`.
 */
export function schemaDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return limit + 1;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}
