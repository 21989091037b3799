import type { Observable } from 'rxjs';
import type { ChatClient } from '../client/chat-client.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ChatResponse } from '../core/chat-response.js';
import type { Usage } from '../core/usage.js';

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
 * ```ts partial
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
