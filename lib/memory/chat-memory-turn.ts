import {
  catchError,
  concat,
  concatMap,
  config,
  defer,
  EMPTY,
  finalize,
  from,
  ignoreElements,
  tap,
  throwError,
  type Observable,
} from 'rxjs';
import type { AdvisorChain } from '../advisor-api/advisor.js';
import { ContextKeys } from '../advisor-api/context-keys.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ChatResponse } from '../core/chat-response.js';
import type { AssistantMessage, Message } from '../core/message.js';
import { ResponseAssembler } from '../core/response-assembler.js';
import { ToolLoopTranscript, type TranscriptMark } from '../core/tool-loop-transcript.js';
import { lazyUsageReport, type ChatMemoryUsageReport } from './chat-memory-usage-report.js';
import type { ChatMemory } from './chat-memory.js';
import { turnInputs } from './conversation-messages.js';

/** What {@link chatMemoryTurn} needs. @internal */
export interface ChatMemoryTurnOptions {
  chatMemory: ChatMemory;
  conversationId: string;
  request: ChatRequest;
  chain: AdvisorChain;
  /** Builds the request sent down the chain from the call's request and the stored history. */
  prepare: (request: ChatRequest, history: Message[]) => ChatRequest;
  /** Ordered inside the tool loop: one turn is one round, and its tool calls are kept. */
  insideToolLoop: boolean;
  /** Outside the loop: also save the loop's messages (its `ToolLoopTranscript`) of this run. */
  saveToolMessages: boolean;
}

type Phase = 'loading' | 'streaming' | 'saving' | 'failed';

/**
 * One call (or, inside the tool loop, one round) with memory: reads the history once,
 * streams the chain with it, and writes the turn with ONE `chatMemory.add` when the
 * stream completes: the turn's inputs, then (by option) the tool loop's messages, then
 * the final assistant message. The stream completes only after that write. A failed
 * stream writes the inputs only and rethrows; an unsubscribed one writes the inputs in
 * the background. Must be called inside `defer` (its state belongs to one subscription).
 * @internal
 */
export function chatMemoryTurn(options: ChatMemoryTurnOptions): Observable<ChatChunk> {
  const { chatMemory, conversationId, request, chain, prepare } = options;
  // A durable run's resume (ContextKeys.RUN_RESUME): a completed run is written once, by
  // its first call; a continued one does not write inputs memory holds already.
  const resume = request.context.get(ContextKeys.RUN_RESUME);
  const writes = resume !== 'completed';
  let inputs = turnInputs(request.messages);
  let inputsStored = false;
  const loop = options.insideToolLoop
    ? undefined
    : new LoopMessagesReader(request.context, options.saveToolMessages);
  const assembler = new ResponseAssembler();
  let phase: Phase = 'loading';

  let sent: readonly Message[] = [];
  const save$ = (messages: Message[], usage?: ChatMemoryUsageReport): Observable<never> =>
    defer(() => {
      phase = 'saving';
      return writes ? from(chatMemory.add(conversationId, messages, usage)) : EMPTY;
    }).pipe(ignoreElements());

  const turn$ = defer(() => from(chatMemory.get(conversationId))).pipe(
    concatMap((history) => {
      phase = 'streaming';
      let stored = history;
      if (resume === 'continued' && endsWith(history, inputs)) {
        // The request carries them again: the history without them, so they are sent once.
        stored = history.slice(0, history.length - inputs.length);
        inputs = [];
        inputsStored = true;
      }
      const prepared = prepare(request, stored);
      sent = prepared.messages;
      return chain.next(prepared);
    }),
    tap((chunk) => assembler.add(chunk)),
    catchError((error: unknown) => {
      if (phase !== 'streaming') {
        phase = 'failed';
        return throwError(() => error);
      }
      // The stream's error is what the caller must see; a failed write of the inputs
      // on top of it goes where RxJS sends errors that have nowhere else to go.
      if (inputsStored) return throwError(() => error);
      return concat(
        save$(inputs).pipe(
          catchError((saveError: unknown) => {
            reportUnhandled(saveError);
            return EMPTY;
          }),
        ),
        throwError(() => error),
      );
    }),
  );

  const complete$ = defer(() => {
    const response = assembler.build();
    const { inputTokens } = response.usage;
    const loopMessages = loop?.read() ?? [];
    // The provider's count of what this turn sent lets a token window size the conversation.
    const usage =
      inputTokens === undefined ? undefined : lazyUsageReport(inputTokens, sent, loopMessages);
    return save$([...inputs, ...producedMessages(response, loop, loopMessages)], usage);
  });

  return concat(turn$, complete$).pipe(
    finalize(() => {
      if (phase !== 'loading' && phase !== 'streaming') return;
      phase = 'saving';
      if (!writes || inputsStored) return;
      // Unsubscribed mid-call: keep what the user said; nothing of the answer is written.
      // A ChatMemory that throws instead of rejecting must not break the teardown.
      new Promise<void>((resolve) => resolve(chatMemory.add(conversationId, inputs))).catch(
        reportUnhandled,
      );
    }),
  );
}

/** Whether `history` ends with `messages` (the same messages, compared as JSON). */
function endsWith(history: readonly Message[], messages: readonly Message[]): boolean {
  if (messages.length === 0 || messages.length > history.length) return false;
  const offset = history.length - messages.length;
  return messages.every(
    (message, i) => JSON.stringify(history[offset + i]) === JSON.stringify(message),
  );
}

/** The messages the call produced, in order, as they go into memory. */
function producedMessages(
  response: ChatResponse,
  loop: LoopMessagesReader | undefined,
  loopMessages: readonly Message[],
): Message[] {
  if (response.finishReason === 'error') return [];
  const produced: Message[] = loop?.save === true ? loopMessages.slice() : [];
  const answer = finalAnswer(response.message, loopMessages, loop?.save === true);
  if (loop?.save === false && response.finishReason === 'awaiting-approval') {
    // The paused calls are kept even without saveToolMessages: the next request's
    // decisions name them, and the loop resumes the round from this message.
    const paused = pausedCalls(loopMessages);
    if (paused !== undefined) {
      produced.push({
        ...answer,
        role: 'assistant',
        content: answer?.content ?? '',
        toolCalls: paused,
      });
      return produced;
    }
  }
  if (answer !== undefined) produced.push(answer);
  return produced;
}

/** The tool calls of the round the loop paused on for approval: its last message's. */
function pausedCalls(loopMessages: readonly Message[]): AssistantMessage['toolCalls'] {
  const last = loopMessages.at(-1);
  return last?.role === 'assistant' ? last.toolCalls : undefined;
}

/**
 * Reads the messages the tool loop (ordered inside this advisor) added during this run.
 * The context may outlive one run (an outer advisor re-running the chain), so only what
 * the transcript got after the subscription started counts.
 */
class LoopMessagesReader {
  private readonly transcript: ToolLoopTranscript;
  private readonly mark: TranscriptMark;

  constructor(
    context: Map<string, unknown>,
    readonly save: boolean,
  ) {
    this.transcript = ToolLoopTranscript.of(context);
    this.mark = this.transcript.mark();
  }

  read(): Message[] {
    return this.transcript.since(this.mark);
  }
}

function finalAnswer(
  message: AssistantMessage,
  loopMessages: readonly Message[],
  saveToolMessages: boolean,
): AssistantMessage | undefined {
  let answer = message;
  if (loopMessages.length > 0) {
    // The loop answered these calls already; outbound tool-call chunks (emitToolEvents)
    // must not make the final answer look like an unanswered tool call.
    answer = { role: 'assistant', content: message.content };
    if (message.reasoning !== undefined) answer.reasoning = message.reasoning;
    if (saveToolMessages) answer.content = stripEarlierRounds(message.content, loopMessages);
  }
  const empty =
    answer.content === '' && answer.toolCalls === undefined && answer.reasoning === undefined;
  return empty ? undefined : answer;
}

/** The outbound text holds every round's text; the loop's messages already hold the earlier rounds'. */
function stripEarlierRounds(text: string, loopMessages: readonly Message[]): string {
  let earlier = '';
  for (const message of loopMessages) if (message.role === 'assistant') earlier += message.content;
  return earlier !== '' && text.startsWith(earlier) ? text.slice(earlier.length) : text;
}

/** Where RxJS sends errors that have no subscriber left to receive them. */
function reportUnhandled(error: unknown): void {
  config.onUnhandledError?.(error);
}
