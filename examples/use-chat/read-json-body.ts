import type { IncomingMessage } from 'node:http';

/** A request body that was refused: the HTTP status and why. */
export interface RefusedBody {
  status: 400 | 413 | 415;
  error: string;
}

/**
 * Reads a JSON request body of at most `maxBytes` bytes (413 past it, without reading on).
 *
 * @example
 * ```ts partial
 * const body = await readJsonBody(req, 1_048_576);
 * if ('refused' in body) return send(res, body.refused.status, body.refused.error);
 * ```
 * @param req The request.
 * @param maxBytes The largest body accepted.
 * @returns The parsed value, or why it was refused.
 */
export async function readJsonBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<{ value: unknown } | { refused: RefusedBody }> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    return { refused: { status: 415, error: 'Send JSON (content-type: application/json).' } };
  }
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > maxBytes) {
      return { refused: { status: 413, error: `The body is larger than ${maxBytes} bytes.` } };
    }
    parts.push(part);
  }
  try {
    return { value: JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown };
  } catch {
    return { refused: { status: 400, error: 'The body is not JSON.' } };
  }
}
