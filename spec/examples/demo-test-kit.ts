// Helpers for the demo's HTTP tests: a real HTTP client and a real SSE parser
// (eventsource-parser), so the tests read the wire the way a browser would.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { mkdtempSync } from 'node:fs';
import {
  request,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Event data is whatever JSON the server sent; tests read fields they assert on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export interface ChatEvent {
  event: string;
  id: string | undefined;
  data: Json;
}

export interface ChatExchange {
  status: number;
  headers: IncomingHttpHeaders;
  /** The `name=value` part of a Set-Cookie header, when one was sent. */
  setCookie: string | undefined;
  events: ChatEvent[];
  /** The concatenated text-delta texts. */
  text: string;
  /** The raw body (for non-SSE answers). */
  body: string;
}

export interface ChatRequestOptions {
  cookie?: string | undefined;
  contentType?: string;
  /** The raw body; default `JSON.stringify({ message })`. */
  body?: string;
  onEvent?: (event: ChatEvent, req: ClientRequest, res: IncomingMessage) => void;
}

/** Posts to `/api/chat` and collects the whole exchange. Resolves when the response ends or the socket closes. */
export function postChat(
  baseUrl: string,
  message: string,
  options: ChatRequestOptions = {},
): Promise<ChatExchange> {
  const body = options.body ?? JSON.stringify({ message });
  const headers = { 'content-type': options.contentType ?? 'application/json' };
  return exchange(new URL('api/chat', baseUrl), 'POST', headers, body, options);
}

export interface ResumeChatOptions {
  cookie?: string | undefined;
  /** Sent as the `Last-Event-ID` header when given. */
  lastEventId?: string | undefined;
  onEvent?: ChatRequestOptions['onEvent'];
}

/** GETs `/api/chat/<streamId>` (the resume endpoint) and collects the whole exchange. */
export function resumeChat(
  baseUrl: string,
  streamId: string,
  options: ResumeChatOptions = {},
): Promise<ChatExchange> {
  const headers: Record<string, string> =
    options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId };
  const { cookie, onEvent } = options;
  return exchange(new URL(`api/chat/${streamId}`, baseUrl), 'GET', headers, undefined, {
    cookie,
    ...(onEvent === undefined ? {} : { onEvent }),
  });
}

function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  options: Pick<ChatRequestOptions, 'cookie' | 'onEvent'>,
): Promise<ChatExchange> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      headers: {
        ...headers,
        ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const events: ChatEvent[] = [];
      let raw = '';
      const parser = createParser({
        onEvent: (message: EventSourceMessage) => {
          const event = {
            event: message.event ?? 'message',
            id: message.id,
            data: JSON.parse(message.data),
          };
          events.push(event);
          options.onEvent?.(event, req, res);
        },
      });
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        raw += text;
        parser.feed(text);
      });
      const finish = (): void =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          setCookie: res.headers['set-cookie']?.[0]?.split(';')[0],
          events,
          text: events
            .filter((e) => e.event === 'text-delta')
            .map((e) => e.data.text as string)
            .join(''),
          body: raw,
        });
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish); // a destroyed request: resolve with what arrived
    });
    req.end(body);
  });
}

/** GETs (or POSTs with an empty body) a JSON endpoint. */
export async function fetchJson(
  baseUrl: string,
  path: string,
  options: { cookie?: string | undefined; method?: string } = {},
): Promise<{ status: number; json: Json; setCookie: string | undefined }> {
  const response = await fetch(new URL(path, baseUrl), {
    method: options.method ?? 'GET',
    headers: options.cookie === undefined ? {} : { cookie: options.cookie },
  });
  return {
    status: response.status,
    json: await response.json(),
    setCookie: response.headers.get('set-cookie')?.split(';')[0],
  };
}

/** A fresh folder for the demo's SQLite file. */
export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'rx-demo-'));
}

/** A fixed instant: 2024-01-15 12:30 UTC (13:30 in Paris, 21:30 in Tokyo). */
export const FIXED_NOW = new Date('2024-01-15T12:30:00Z');
