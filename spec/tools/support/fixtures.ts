import { lastValueFrom, toArray, type Observable } from 'rxjs';
import type { ChatChunk } from '../../../lib/core/chat-chunk';
import { tool } from '../../../lib/tools/tool-fn';

/** A city-time tool that records the cities it was called with. */
export function timeTool(calls: string[] = []) {
  return tool({
    name: 'getTime',
    description: 'The current time in a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
    execute: ({ city }) => {
      calls.push(city);
      return `12:00 in ${city}`;
    },
  });
}

/** Collects every chunk of a stream. */
export function chunksOf(chunks$: Observable<ChatChunk>): Promise<ChatChunk[]> {
  return lastValueFrom(chunks$.pipe(toArray()));
}

/** The chunk types of a list, in order. */
export function typesOf(chunks: readonly ChatChunk[]): string[] {
  return chunks.map((chunk) => chunk.type);
}

/** The concatenated text deltas of a list. */
export function textOf(chunks: readonly ChatChunk[]): string {
  return chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.text : '')).join('');
}
