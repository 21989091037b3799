import type { ServerResponse } from 'node:http';

/**
 * Answers with a JSON body (never cached).
 * @param res The response.
 * @param status The HTTP status.
 * @param body A value to stringify, or JSON text.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(text);
}
