// Test support for the SSE specs: real servers on 127.0.0.1:0 and a real SSE parser.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { lastValueFrom, toArray, type Observable } from 'rxjs';

/** What a real SSE parser makes of a body: the events, and the comments it skipped. */
export interface ParsedStream {
  events: EventSourceMessage[];
  comments: string[];
}

/** Parses SSE text with eventsource-parser (the parser EventSource polyfills and the AI SDK use). */
export function parseSse(text: string): ParsedStream {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (event) => events.push(event),
    onComment: (comment) => comments.push(comment),
  });
  parser.feed(text);
  return { events, comments };
}

/** Every frame of a frames Observable, concatenated. */
export async function framesText(frames$: Observable<string>): Promise<string> {
  return (await lastValueFrom(frames$.pipe(toArray()))).join('');
}

/** Starts a server on a free loopback port; returns its base URL. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Closes a server, dropping kept-alive connections. */
export async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Reads SSE events from a response as they arrive; `until` stops reading (and cancels the
 * body, like a client that goes away) once it returns true.
 */
export async function readEvents(
  response: Response,
  until?: (events: EventSourceMessage[]) => boolean,
): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    parser.feed(value);
    if (until?.(events) === true) {
      await reader.cancel();
      return events;
    }
  }
}

/** Resolves when `predicate` holds, checking on each turn of the event loop (max ~5 s). */
export async function eventually(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for: ${what}`);
}
