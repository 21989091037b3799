import { defer, from, isObservable, map, of, take, type Observable } from 'rxjs';
import type { ChatClient } from '../client/chat-client.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ChatResponse } from '../core/chat-response.js';
import { isPromiseLike } from '../core/is-promise-like.js';
import type { Usage } from '../core/usage.js';
import { EvaluationError } from '../errors/evaluation-error.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { judgeWithClient } from './judge-with-client.js';
import type { Advisor, AdvisorChain } from './advisor.js';
import { ContextKeys } from './context-keys.js';
import { Order } from './order.js';
import { previousAttemptMessages } from './previous-attempt-messages.js';
import { recursiveAdvisor, type RecursionState, type RecursionStep } from './recursive-advisor.js';

/**
 * What a judge is given.
 *
 * @example
 * ```ts
 * import { EvaluationAdvisor, type EvaluationInput } from 'rx-advisors';
 * const judge = ({ answer }: EvaluationInput) => ({ pass: !answer.includes('TODO'), feedback: 'Finish the answer.' });
 * new EvaluationAdvisor({ judge });
 * ```
 */
export interface EvaluationInput {
  /** The last user message of the original request. */
  question: string | undefined;
  /** The answer text to judge. */
  answer: string;
  /** The whole response of the attempt. */
  response: ChatResponse;
  /** The request the attempt sent. */
  request: ChatRequest;
  /** The attempt, counting from 1. */
  attempt: number;
}

/**
 * A judge's verdict.
 *
 * @example
 * ```ts
 * import type { EvaluationResult } from 'rx-advisors';
 * const verdict: EvaluationResult = { pass: false, score: 4, feedback: 'Cite a source.' };
 * ```
 */
export interface EvaluationResult {
  /** Whether the answer is good enough. */
  pass: boolean;
  /** An optional score, reported in the feedback and in `EvaluationError`. */
  score?: number;
  /** What to improve; sent to the model with the next attempt. */
  feedback?: string;
  /** Tokens the judge spent, added to the call's usage. */
  usage?: Partial<Usage>;
}

/**
 * A judge: a function returning a verdict (now, as a Promise or as an Observable, first
 * value), or another `ChatClient`, asked to answer `{ pass, score, feedback }` as JSON.
 *
 * @example
 * ```ts
 * import { ChatClient, type EvaluationJudge } from 'rx-advisors';
 * const byLength: EvaluationJudge = ({ answer }) => Promise.resolve({ pass: answer.length < 500 });
 * const byModel: EvaluationJudge = ChatClient.create(judgeModel);
 * ```
 */
export type EvaluationJudge =
  | ((
      input: EvaluationInput,
    ) => EvaluationResult | PromiseLike<EvaluationResult> | Observable<EvaluationResult>)
  | ChatClient;

/**
 * Options of {@link EvaluationAdvisor}.
 *
 * @example
 * ```ts
 * import { EvaluationAdvisor, type EvaluationAdvisorOptions } from 'rx-advisors';
 * const options: EvaluationAdvisorOptions = { judge: () => ({ pass: true }), maxAttempts: 2, onExhausted: 'error' };
 * new EvaluationAdvisor(options);
 * ```
 */
export interface EvaluationAdvisorOptions {
  /** Decides whether an answer passes. */
  judge: EvaluationJudge;
  /** Model calls in all, the first one included; default 3. */
  maxAttempts?: number;
  /** When no answer passes: return the last one (default) or fail with `EvaluationError`. */
  onExhausted?: 'return-last' | 'error';
  /** The user message of a re-run; default states the score and feedback and asks again. */
  feedbackMessage?: (result: EvaluationResult, input: EvaluationInput) => string;
  /** The system text a `ChatClient` judge gets; default asks for `{ pass, score, feedback }`. */
  judgeInstructions?: string;
  /** Default `HIGHEST_PRECEDENCE + 240`: outside structured output and the tool loop. */
  order?: number;
  /** Default `'evaluation'`. */
  name?: string;
}

/**
 * Judges each final answer and, when the judge rejects it, runs the rest of the chain
 * again with the judge's feedback (after the rejected answer) until an answer passes or
 * `maxAttempts` run out. Built on `recursiveAdvisor`: attempts stream through, `retry`
 * chunks mark re-runs, usage (the judge's included) is summed.
 *
 * @example
 * ```ts
 * import { ChatClient, EvaluationAdvisor } from 'rx-advisors';
 *
 * const concise = new EvaluationAdvisor({
 *   judge: ({ answer }) => ({ pass: answer.length < 200, feedback: 'Answer in under 200 characters.' }),
 * });
 * const client = ChatClient.builder(model).defaultAdvisors(concise).build();
 * // or a model as the judge: new EvaluationAdvisor({ judge: ChatClient.create(judgeModel) })
 * ```
 */
export class EvaluationAdvisor implements Advisor {
  readonly name: string;
  readonly order: number;
  private readonly options: EvaluationAdvisorOptions;
  private readonly maxAttempts: number;

  /** @param options The judge, attempts, what to do when they run out, order and name. */
  constructor(options: EvaluationAdvisorOptions) {
    const { judge, maxAttempts = 3, onExhausted = 'return-last' } = options ?? {};
    if (
      typeof judge !== 'function' &&
      typeof (judge as ChatClient | undefined)?.prompt !== 'function'
    ) {
      throw new InvalidOptionsError({
        option: 'judge',
        value: judge,
        expected: 'a function returning { pass, score?, feedback? }, or a ChatClient',
      });
    }
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
      throw new InvalidOptionsError({
        option: 'maxAttempts',
        value: maxAttempts,
        expected: 'an integer of at least 1',
      });
    }
    if (onExhausted !== 'error' && onExhausted !== 'return-last') {
      throw new InvalidOptionsError({
        option: 'onExhausted',
        value: onExhausted,
        expected: "'return-last' or 'error'",
      });
    }
    this.options = options;
    this.maxAttempts = maxAttempts;
    this.name = options.name ?? 'evaluation';
    this.order = options.order ?? Order.HIGHEST_PRECEDENCE + 240;
  }

  /**
   * Runs the chain, judging each answer and re-running with feedback.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The attempts' chunks, `retry` chunks between them, then metadata, usage, finish.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const feedback: string[] = [];
      const loopAtStart = request.context.get(ContextKeys.TOOL_LOOP_MESSAGES);
      return recursiveAdvisor({
        name: this.name,
        order: this.order,
        next: (state) => this.decide(state, feedback, loopAtStart),
      }).advise(request, chain);
    });
  }

  private decide(
    state: RecursionState,
    feedback: string[],
    loopAtStart: unknown,
  ): Observable<RecursionStep | undefined> | undefined {
    const { response, attempt, originalRequest, addUsage } = state;
    if (response === undefined || response.finishReason === 'tool-calls') return undefined;
    const input: EvaluationInput = {
      question: originalRequest.lastUserText,
      answer: response.text,
      response,
      request: state.request,
      attempt,
    };
    return this.judge(input).pipe(
      map((result) => {
        if (result.usage !== undefined) addUsage(result.usage);
        if (result.pass) return undefined;
        feedback.push(result.feedback ?? '');
        if (attempt >= this.maxAttempts) {
          if ((this.options.onExhausted ?? 'return-last') === 'return-last') return undefined;
          throw new EvaluationError({
            attempts: attempt,
            feedback,
            lastText: response.text,
            lastScore: result.score,
          });
        }
        const message = (this.options.feedbackMessage ?? defaultFeedbackMessage)(result, input);
        return {
          request: originalRequest.appendMessages(
            ...previousAttemptMessages(state, response, message, loopAtStart),
          ),
          reason: `rejected by the judge${result.score === undefined ? '' : ` (score ${result.score})`}`,
        };
      }),
    );
  }

  private judge(input: EvaluationInput): Observable<EvaluationResult> {
    const { judge, judgeInstructions } = this.options;
    if (typeof judge !== 'function') return judgeWithClient(judge, input, judgeInstructions);
    return defer(() => {
      const verdict = judge(input);
      if (isObservable(verdict)) return verdict.pipe(take(1));
      if (isPromiseLike<EvaluationResult>(verdict)) return from(verdict);
      return of(verdict);
    });
  }
}

function defaultFeedbackMessage(result: EvaluationResult): string {
  const score = result.score === undefined ? '' : ` (score ${result.score})`;
  const feedback = result.feedback ? `\nFeedback: ${result.feedback}` : '';
  return (
    `A reviewer rejected your previous answer${score}.${feedback}\n` +
    'Answer the original request again, taking this feedback into account.'
  );
}
