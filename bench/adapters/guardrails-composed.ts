import { concat, defer, EMPTY, mergeMap, of, type MonoTypeOperatorFunction } from 'rxjs';
import type { ChatChunk } from 'rx-advisors';
import type { PiiRedaction } from 'rx-advisors/guardrails';

/**
 * PII redaction of the answer text composed from stock operators, with the same scanner and
 * the same chunks out as the library's hand-written operator (`redactStream`, over
 * `textRunOperator`): `mergeMap` from each chunk to the chunks it releases (an array), then
 * `concat` with a deferred flush of the carry-over. The GUARD rows compare the two.
 */
export function composedRedaction(redaction: PiiRedaction): MonoTypeOperatorFunction<ChatChunk> {
  return (source) =>
    defer(() => {
      const scanner = redaction.scanner();
      let open = false;
      const flush = (): ChatChunk[] => {
        if (!open) return [];
        open = false;
        const text = scanner.end();
        return text === '' ? [] : [{ type: 'text-delta', text }];
      };
      return concat(
        source.pipe(
          mergeMap((chunk): ChatChunk[] => {
            if (chunk.type === 'text-delta') {
              open = true;
              const text = scanner.write(chunk.text);
              if (text === chunk.text) return [chunk];
              return text === '' ? [] : [{ type: 'text-delta', text }];
            }
            if (chunk.type === 'usage' || chunk.type === 'metadata') return [chunk];
            return [...flush(), chunk];
          }),
        ),
        defer(() => {
          const rest = flush();
          return rest.length === 0 ? EMPTY : of(...rest);
        }),
      );
    });
}
