import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The cookie that ties a browser to its conversation. */
export const SESSION_COOKIE = 'rx_demo_session';

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A browser session: its id (the memory's conversation id), and a cookie to set when new. */
export interface DemoSession {
  id: string;
  /** The `Set-Cookie` value to send, when the request carried no valid session. */
  setCookie: string | undefined;
}

/**
 * The session of a request: the id in its `rx_demo_session` cookie when that is a valid
 * UUID, else a new one (with the cookie to set). The cookie is HttpOnly and SameSite=Strict:
 * page scripts cannot read it and other sites cannot send it.
 * @param req The request.
 * @returns The session.
 */
export function sessionOf(req: IncomingMessage): DemoSession {
  const id = readCookie(req.headers.cookie, SESSION_COOKIE);
  if (id !== undefined && SESSION_ID.test(id)) return { id, setCookie: undefined };
  const fresh = randomUUID();
  return {
    id: fresh,
    setCookie: `${SESSION_COOKIE}=${fresh}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000`,
  };
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
