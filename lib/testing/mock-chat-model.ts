import { concat, concatMap, defer, from, map, of, throwError, timer, type Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatModel } from '../core/chat-model.js';
import type { ChatRequest } from '../core/chat-request.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ProviderError } from '../errors/provider-error.js';
import { mockChunks } from './mock-chunks.js';
import type { MockRound } from './mock-round.js';

/** Options of the `MockChatModel` factories. */
export interface MockChatModelOptions {
  /** Reported as `ChatModel.provider`; default `'mock'`. */
  provider?: string;
  /** Reported in metadata chunks; default `'mock-model'`. */
  model?: string;
  /** When the script runs out: fail the call (default) or repeat the last round. */
  onExhausted?: 'error' | 'repeat-last';
}

/** What a `MockChatModel.respond` function returns for one call. */
export type MockResponse = MockRound | Observable<ChatChunk>;

type Responder = (request: ChatRequest, call: number) => MockResponse;

/**
 * A scripted chat model for tests and examples. Each subscription is one model call and
 * records its request in `requests`.
 *
 * @example
 * ```ts
 * import { MockChatModel } from 'rx-advisors/testing';
 *
 * const model = MockChatModel.script([
 *   { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }], usage: { inputTokens: 10, outputTokens: 5 } },
 *   { text: 'It is noon in Paris.', usage: { inputTokens: 20, outputTokens: 7 } },
 * ]);
 * model.requests; // every ChatRequest it received, in order
 * ```
 */
export class MockChatModel implements ChatModel {
  readonly provider: string;
  /** Every request received, in subscription order. */
  readonly requests: ChatRequest[] = [];
  /**
   * The `model` option when one was given (telemetry's requested model); the placeholder
   * `'mock-model'` that metadata chunks report otherwise is not claimed as a request.
   */
  readonly defaultModel: string | undefined;
  private readonly modelName: string;
  private readonly responder: Responder;

  private constructor(responder: Responder, options: MockChatModelOptions) {
    this.provider = options.provider ?? 'mock';
    this.defaultModel = options.model;
    this.modelName = options.model ?? 'mock-model';
    this.responder = responder;
  }

  /**
   * A model that answers its calls with these rounds, in order.
   * @param rounds One scripted round per model call.
   * @param options Provider and model names, and what to do when the script runs out.
   * @returns A new model.
   */
  static script(rounds: readonly MockRound[], options: MockChatModelOptions = {}): MockChatModel {
    const given: unknown = rounds;
    if (!Array.isArray(given)) {
      throw new InvalidOptionsError({
        option: 'rounds',
        value: rounds,
        expected: 'an array of MockRound',
      });
    }
    const exhausted = options.onExhausted ?? 'error';
    return new MockChatModel((_request, call) => {
      const round =
        rounds[call - 1] ?? (exhausted === 'repeat-last' ? rounds[rounds.length - 1] : undefined);
      if (round === undefined) {
        return throwError(
          () =>
            new InvalidOptionsError({
              option: 'rounds',
              value: `call ${call}`,
              expected: `at most ${rounds.length} model calls: the MockChatModel script ran out`,
            }),
        );
      }
      return round;
    }, options);
  }

  /**
   * The marble form: call N subscribes to `streams[N - 1]` (typically `cold(...)` from a
   * `TestScheduler`), so subscriptions can be asserted per model call.
   * @param streams One Observable per model call.
   * @param options Provider and model names.
   * @returns A new model.
   * @example
   * ```ts
   * import { TestScheduler } from 'rxjs/testing';
   * import type { ChatChunk } from 'rx-advisors';
   * import { MockChatModel } from 'rx-advisors/testing';
   *
   * const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
   * testScheduler.run(({ cold }) => {
   *   // cold<ChatChunk>: without it, `type: 'text-delta'` widens to `string`.
   *   const round1 = cold<ChatChunk>('-a-f|', {
   *     a: { type: 'text-delta', text: 'Hi' },
   *     f: { type: 'finish', reason: 'stop' },
   *   });
   *   const model = MockChatModel.fromStreams([round1]);
   * });
   * ```
   */
  static fromStreams(
    streams: readonly Observable<ChatChunk>[],
    options: MockChatModelOptions = {},
  ): MockChatModel {
    return new MockChatModel(
      (_request, call) =>
        streams[call - 1] ??
        throwError(
          () =>
            new InvalidOptionsError({
              option: 'streams',
              value: `call ${call}`,
              expected: `at most ${streams.length} model calls`,
            }),
        ),
      options,
    );
  }

  /**
   * A model whose every call is answered by a function of the request.
   * @param respond Gets the request and the call number (from 1); returns a round or a chunk Observable.
   * @param options Provider and model names.
   * @returns A new model.
   * @example
   * ```ts
   * import { MockChatModel } from 'rx-advisors/testing';
   * const echo = MockChatModel.respond((request) => ({ text: `You said: ${request.lastUserText}` }));
   * ```
   */
  static respond(respond: Responder, options: MockChatModelOptions = {}): MockChatModel {
    return new MockChatModel(respond, options);
  }

  /** How many calls were made. */
  get calls(): number {
    return this.requests.length;
  }

  /**
   * Streams one scripted call (cold: recorded and played on subscription).
   * @param request The request, recorded in `requests`.
   * @returns The round's chunks.
   */
  stream(request: ChatRequest): Observable<ChatChunk> {
    return defer(() => {
      this.requests.push(request);
      const call = this.requests.length;
      const response = this.responder(request, call);
      return isObservable(response) ? response : this.play(response, call);
    });
  }

  private play(round: MockRound, call: number): Observable<ChatChunk> {
    const chunks = mockChunks(round, call, this.modelName);
    const { interval, delay } = round;
    let chunks$: Observable<ChatChunk> =
      interval === undefined
        ? from(chunks)
        : from(chunks).pipe(
            concatMap((chunk, index) =>
              index === 0 ? of(chunk) : timer(interval).pipe(map(() => chunk)),
            ),
          );
    if (round.error !== undefined) {
      const error = round.error;
      chunks$ = concat(
        chunks$,
        throwError(() =>
          typeof error === 'string'
            ? new ProviderError({ provider: this.provider, message: error })
            : error,
        ),
      );
    }
    return delay === undefined ? chunks$ : timer(delay).pipe(concatMap(() => chunks$));
  }
}

function isObservable(value: MockResponse): value is Observable<ChatChunk> {
  return typeof (value as Observable<ChatChunk>).subscribe === 'function';
}
