import {
  concat,
  defer,
  EMPTY,
  expand,
  from,
  ignoreElements,
  map,
  mergeMap,
  type Observable,
  type OperatorFunction,
} from 'rxjs';
import type { ChatChunk } from '../../lib/index.js';
import { splitAtDelta, textChunks, toolRoundChunks } from '../harness/chunks.js';
import type { BenchAdapter, TextFixture } from '../harness/types.js';
import { runAsyncNoop } from './w2-async-tool.js';

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

/**
 * The floor of W2 with the asynchronous tool: `defer` + `expand`; a round's `finish` starts
 * the next round once the round's tool call (parsed, validated with the same zod schema)
 * resolved: `from(promise)` then the next round.
 */
function asyncToolLoop$(rounds: number, final: readonly ChatChunk[]): Observable<ChatChunk> {
  return defer(() => {
    let round = 1;
    let args = '';
    const round$ = (): Observable<ChatChunk> =>
      from(round <= rounds ? toolRoundChunks(round) : final);
    return round$().pipe(
      expand((chunk) => {
        if (chunk.type === 'tool-call') args = chunk.arguments;
        if (chunk.type !== 'finish' || chunk.reason !== 'tool-calls') return EMPTY;
        round++;
        return from(runAsyncNoop(args)).pipe(mergeMap(round$));
      }),
    );
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

  toolLoop(rounds, fixture, kind = 'sync') {
    const final = textChunks(fixture);
    if (kind === 'async') return collect(asyncToolLoop$(rounds, final));
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
