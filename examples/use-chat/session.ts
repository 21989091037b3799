import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const COOKIE = 'use_chat_session';
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A browser session: the owner of its chats' streams, and the cookie to set when new. */
export interface Session {
  id: string;
  /** The `Set-Cookie` value to send when the request carried no valid session. */
  setCookie: string | undefined;
}

/**
 * The session of a request, from its HttpOnly, SameSite=Strict cookie (a new one when it has
 * none). The session, never the request body, owns the resumable streams: the chat id that
 * `useChat` sends is only a stream id within it.
 *
 * @example
 * ```ts partial
 * const { id: owner, setCookie } = sessionOf(req);
 * ```
 * @param req The request.
 * @returns The session.
 */
export function sessionOf(req: IncomingMessage): Session {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== COOKIE) continue;
    const id = pair.slice(eq + 1).trim();
    if (SESSION_ID.test(id)) return { id, setCookie: undefined };
  }
  const id = randomUUID();
  return { id, setCookie: `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict` };
}
