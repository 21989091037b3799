import {
  concat,
  defer,
  EMPTY,
  expand,
  from,
  ignoreElements,
  map,
  type Observable,
  type OperatorFunction,
} from 'rxjs';
import type { ChatChunk } from '../../lib/index.js';
import { splitAtDelta, textChunks, toolRoundChunks } from '../harness/chunks.js';
import type { BenchAdapter, TextFixture } from '../harness/types.js';

const identity: OperatorFunction<ChatChunk, ChatChunk> = map((chunk: ChatChunk) => chunk);

function withMaps(source$: Observable<ChatChunk>, count: number): Observable<ChatChunk> {
  let chunks$ = source$;
  for (let i = 0; i < count; i++) chunks$ = chunks$.pipe(identity);
  return chunks$;
}

function collect(chunks$: Observable<ChatChunk>): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    chunks$.subscribe({
      next: (chunk) => {
        if (chunk.type === 'text-delta') text += chunk.text;
      },
      error: reject,
      complete: () => resolve(text),
    });
  });
}

/** The floor: the same chunk objects through a bare `from(array).pipe(map, …)`. */
export const floorRxjsAdapter: BenchAdapter = {
  framework: 'floor-rxjs',
  passThroughLabel: '5 × map((chunk) => chunk)',
  toolLoopLabel: 'bare defer + expand on the finish chunk',

  stream(fixture, advisors) {
    return collect(withMaps(from(textChunks(fixture)), advisors));
  },

  toolLoop(rounds, fixture) {
    const final = textChunks(fixture);
    const loop$ = defer(() => {
      let round = 1;
      const round$ = (): Observable<ChatChunk> =>
        from(round <= rounds ? toolRoundChunks(round) : final);
      return round$().pipe(
        expand((chunk) => {
          if (chunk.type !== 'finish' || chunk.reason !== 'tool-calls') return EMPTY;
          round++;
          return round$();
        }),
      );
    });
    return collect(loop$);
  },

  parked(fixture, parkAt, gate) {
    const { head, tail } = splitAtDelta(textChunks(fixture), parkAt);
    return collect(
      concat(
        from(head),
        defer(() => {
          gate.arrive();
          return from(gate.opened);
        }).pipe(ignoreElements()),
        from(tail),
      ),
    );
  },

  firstChunk(fixture: TextFixture) {
    return new Promise((resolve, reject) => {
      let first = -1;
      let text = '';
      const start = performance.now();
      from(textChunks(fixture)).subscribe({
        next: (chunk) => {
          if (chunk.type !== 'text-delta') return;
          if (first < 0) first = performance.now();
          text += chunk.text;
        },
        error: reject,
        complete: () => {
          if (text !== fixture.text) reject(new Error('floor-rxjs W4 text mismatch'));
          else resolve((first - start) * 1000);
        },
      });
    });
  },
};
