import { defer, from, isObservable, map, of, take, type Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import { previousAttemptMessages } from '../advisor-api/previous-attempt-messages.js';
import {
  recursiveAdvisor,
  type RecursionState,
  type RecursionStep,
} from '../advisor-api/recursive-advisor.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import type { ChatClient } from '../client/chat-client.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import { isPromiseLike } from '../core/is-promise-like.js';
import { ToolLoopTranscript, type TranscriptMark } from '../core/tool-loop-transcript.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { EvaluationError } from '../errors/evaluation-error.js';
import type { EvaluationInput, EvaluationJudge, EvaluationResult } from './evaluation-judge.js';
import { judgeWithClient } from './judge-with-client.js';

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
  /** Default `Order.EVALUATION` (`HIGHEST_PRECEDENCE + 240`): outside structured output. */
  order?: number;
  /** Default `'evaluation'`. */
  name?: string;
}

/** What one run (subscription) collects over its attempts. */
interface EvaluationRun {
  readonly feedback: string[];
  readonly loopAtStart: TranscriptMark;
}

function defaultFeedbackMessage(result: EvaluationResult): string {
  const score = result.score === undefined ? '' : ` (score ${result.score})`;
  const feedback = result.feedback ? `\nFeedback: ${result.feedback}` : '';
  return (
    `A reviewer rejected your previous answer${score}.${feedback}\n` +
    'Answer the original request again, taking this feedback into account.'
  );
}

/** The defaults of {@link EvaluationAdvisorOptions}. */
const EVALUATION_ADVISOR_DEFAULTS = {
  maxAttempts: 3,
  onExhausted: 'return-last',
  feedbackMessage: defaultFeedbackMessage,
  order: Order.EVALUATION,
  name: 'evaluation',
} as const satisfies Omit<Required<EvaluationAdvisorOptions>, 'judge' | 'judgeInstructions'>;

type ResolvedEvaluationOptions = typeof EVALUATION_ADVISOR_DEFAULTS & EvaluationAdvisorOptions;

const EVALUATION_ADVISOR_RULES = {
  ...ADVISOR_IDENTITY_RULES,
  judge: Rules.required(
    Rules.custom(
      'a function returning { pass, score?, feedback? }, or a ChatClient',
      (value) =>
        typeof value === 'function' ||
        (typeof value === 'object' &&
          value !== null &&
          typeof (value as Partial<ChatClient>).prompt === 'function'),
    ),
  ),
  maxAttempts: Rules.integer(1),
  onExhausted: Rules.oneOf('return-last', 'error'),
  feedbackMessage: Rules.func,
  judgeInstructions: Rules.custom('a string', (value) => typeof value === 'string'),
} as const satisfies OptionRules<EvaluationAdvisorOptions>;

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
  private readonly options: ResolvedEvaluationOptions;
  private readonly delegate: Advisor;

  /** @param options The judge, attempts, what to do when they run out, order and name. */
  constructor(options: EvaluationAdvisorOptions) {
    this.options = withDefaults(
      EVALUATION_ADVISOR_DEFAULTS,
      validateOptions(options, EVALUATION_ADVISOR_RULES),
    );
    this.name = this.options.name;
    this.order = this.options.order;
    this.delegate = recursiveAdvisor({
      name: this.name,
      order: this.order,
      start: (request): EvaluationRun => ({
        feedback: [],
        loopAtStart: ToolLoopTranscript.of(request.context).mark(),
      }),
      next: (state, run) => this.decide(state, run),
      // A durable run's replay takes the recorded verdicts: the judge is not asked again.
      recordDecisions: true,
    });
  }

  /**
   * Runs the chain, judging each answer and re-running with feedback.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The attempts' chunks, `retry` chunks between them, then metadata, usage, finish.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return this.delegate.advise(request, chain);
  }

  private decide(
    state: RecursionState,
    run: EvaluationRun,
  ): Observable<RecursionStep | undefined> | undefined {
    const { feedback, loopAtStart } = run;
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
        if (attempt >= this.options.maxAttempts) {
          if (this.options.onExhausted === 'return-last') return undefined;
          throw new EvaluationError({
            attempts: attempt,
            feedback,
            lastText: response.text,
            lastScore: result.score,
          });
        }
        const message = this.options.feedbackMessage(result, input);
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
