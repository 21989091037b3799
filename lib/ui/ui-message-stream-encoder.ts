import type { ChatChunk, FinishReason, ToolResultChunk } from '../core/chat-chunk.js';
import type { ToolCall } from '../core/message.js';
import { UsageAccumulator } from '../core/usage-accumulator.js';
import type { SseEncoder, SseStreamEncoder } from '../sse/encoder/sse-encoder.js';
import type { SseErrorPolicy } from '../sse/encoder/sse-error-policy.js';
import {
  eventLineWriter,
  frameWithoutId,
  type EventLineWriter,
} from '../sse/encoder/sse-frame-writer.js';
import { dataPart, retryPart, sourcePart } from './ui-data-parts.js';
import { toolInputPart, toolOutputPart } from './ui-tool-parts.js';
import { guardrailTrippedPart } from './ui-guardrail-parts.js';

const START = '{"type":"start"}';
const START_STEP = '{"type":"start-step"}';
const FINISH_STEP = '{"type":"finish-step"}';
const DONE = '[DONE]';

/** The AI SDK's finish reasons are ours minus `return-direct`, which ends with an answer. */
function uiFinishReason(reason: FinishReason): string {
  if (reason === 'awaiting-approval') return 'tool-calls';
  return reason === 'return-direct' ? 'stop' : reason;
}

/** The part being written: its id, its deltas' data line up to the delta's JSON. */
interface OpenPart {
  readonly id: string;
  readonly deltaLine: string;
}

/**
 * The per-stream encoder of {@link uiMessageStreamEncoder}: the AI SDK UI message stream v1, as `useChat` and
 * `readUIMessageStream` read it:
 *
 * ```
 * start, source-url/-document*, (start-step, text-start/-delta/-end, reasoning-start/-delta/-end,
 *         tool-input-start/-delta/-available, tool-approval-request,
 *         tool-output-available/-error/-denied, finish-step)+,
 * finish, [DONE]
 * ```
 *
 * A loop round (from `round-start` to the next `round-start` or `finish`, so with its tool
 * results) is a step; a stream without round markers is one step. Delta frames are built
 * from precomputed data lines, so a text delta costs the JSON of its text and one string.
 */
class UiMessageStreamEncoder implements SseStreamEncoder {
  private stepOpen = false;
  private stepsWritten = 0;
  private parts = 0;
  private text: OpenPart | undefined;
  private reasoning: OpenPart | undefined;
  /** Tool call id per `tool-call-delta` index (ids come with an index's first fragment). */
  private readonly toolIdsByIndex: (string | undefined)[] = [];
  private readonly toolDeltaLineByIndex: string[] = [];
  private readonly announced = new Set<string>();
  private usage: UsageAccumulator | undefined;
  private model: string | undefined;
  private rounds: number | undefined;
  private finished = false;

  constructor(
    private readonly frames: EventLineWriter,
    private readonly errors: SseErrorPolicy,
  ) {
    frames.write('', START);
  }

  chunk(chunk: ChatChunk): void {
    switch (chunk.type) {
      case 'text-delta': {
        if (chunk.text === '') return;
        this.openStep();
        this.endReasoning();
        const part = (this.text ??= this.startPart('text'));
        this.frames.writeDelta(part.deltaLine, JSON.stringify(chunk.text));
        return;
      }
      case 'reasoning-delta': {
        if (chunk.text === '') return;
        this.openStep();
        this.endText();
        const part = (this.reasoning ??= this.startPart('reasoning'));
        this.frames.writeDelta(part.deltaLine, JSON.stringify(chunk.text));
        return;
      }
      case 'reasoning': {
        // A complete block ends the part its deltas opened; a block that came without deltas
        // is written whole.
        if (this.reasoning === undefined && chunk.text !== '') {
          this.openStep();
          this.endText();
          const part = (this.reasoning = this.startPart('reasoning'));
          this.frames.writeDelta(part.deltaLine, JSON.stringify(chunk.text));
        }
        this.endReasoning();
        return;
      }
      case 'tool-call-delta': {
        this.openStep();
        const { index } = chunk;
        if (chunk.id !== undefined) {
          this.toolIdsByIndex[index] = chunk.id;
          this.toolDeltaLineByIndex[index] =
            `data: {"type":"tool-input-delta","toolCallId":${JSON.stringify(chunk.id)},"inputTextDelta":`;
          this.announce(chunk.id, chunk.name ?? '');
        }
        if (this.toolIdsByIndex[index] === undefined || chunk.argumentsDelta === '') return;
        const line = this.toolDeltaLineByIndex[index];
        this.frames.writeDelta(line, JSON.stringify(chunk.argumentsDelta));
        return;
      }
      case 'tool-call':
        this.openStep();
        this.writeToolInput(chunk);
        return;
      case 'tool-result': {
        const { id: toolCallId } = chunk;
        if (!this.announced.has(toolCallId) && this.stepsWritten === 0) {
          // The outcome of a round resumed after approval: the client holds its call (useChat
          // continues the message that asked), so only the outcome goes out, before any step.
          this.writeToolOutput(chunk);
          return;
        }
        this.openStep();
        if (!this.announced.has(toolCallId)) {
          // A result whose call was never sent: the reader needs the invocation first.
          this.announce(toolCallId, chunk.name);
          this.write({
            type: 'tool-input-available',
            toolCallId,
            toolName: chunk.name,
            input: null,
          });
        }
        this.writeToolOutput(chunk);
        return;
      }
      case 'tool-approval-request': {
        this.openStep();
        const { toolCall } = chunk;
        // Without emitToolEvents the call was not sent: the reader needs it before the request.
        if (!this.announced.has(toolCall.id)) this.writeToolInput(toolCall);
        this.write({
          type: 'tool-approval-request',
          approvalId: chunk.approvalId,
          toolCallId: toolCall.id,
        });
        return;
      }
      case 'usage':
        (this.usage ??= new UsageAccumulator()).add(chunk.usage);
        return;
      case 'metadata':
        if (chunk.model !== undefined) this.model = chunk.model;
        if (chunk.rounds !== undefined) this.rounds = chunk.rounds;
        return;
      case 'round-start':
        this.closeStep();
        this.openStep();
        return;
      case 'round-end':
        // The tool loop sends a round's tool results after its round-end: they belong to the
        // round's step (as in the AI SDK), so the step ends at the next round-start or finish.
        this.endText();
        this.endReasoning();
        return;
      case 'retry':
        // A retry ends the step: the new attempt starts a step of its own.
        this.closeStep();
        this.write(retryPart(chunk, this.errors));
        return;
      case 'data':
        // A data part is not part of a text or reasoning run, but belongs to the step.
        this.openStep();
        this.write(dataPart(chunk));
        return;
      case 'guardrail-tripped':
        // The UI protocol cannot take text back: the part tells the page which to drop.
        this.openStep();
        this.endText();
        this.endReasoning();
        this.write(guardrailTrippedPart(chunk));
        return;
      case 'source':
        // Retrieval happens before any model call: a source does not open a step (the reader
        // takes source parts anywhere), so no empty step precedes the answer.
        this.write(sourcePart(chunk));
        return;
      case 'finish':
        this.finish(chunk.reason);
        return;
      default: {
        const unknown: never = chunk;
        void unknown; // A chunk type this protocol has no part for is left out.
      }
    }
  }

  complete(): void {
    if (!this.finished) this.finish(undefined);
    this.frames.write('', DONE);
  }

  fail(error: unknown): void {
    this.write({ type: 'error', errorText: this.errors.error(error) });
    this.frames.write('', DONE);
  }

  private finish(reason: FinishReason | undefined): void {
    if (this.stepsWritten === 0) this.openStep();
    this.closeStep();
    this.finished = true;
    const metadata: { usage?: unknown; model?: string; rounds?: number } = {};
    if (this.usage !== undefined) metadata.usage = this.usage.total;
    if (this.model !== undefined) metadata.model = this.model;
    if (this.rounds !== undefined) metadata.rounds = this.rounds;
    this.write({
      type: 'finish',
      ...(reason === undefined ? {} : { finishReason: uiFinishReason(reason) }),
      ...(Object.keys(metadata).length === 0 ? {} : { messageMetadata: metadata }),
    });
  }

  /** A tool call's input part (announced first), or its input error. */
  private writeToolInput(call: ToolCall): void {
    this.announce(call.id, call.name);
    this.write(toolInputPart(call));
  }

  /** A tool result as its output part: an error, a denial, or the output. */
  private writeToolOutput(chunk: ToolResultChunk): void {
    this.write(toolOutputPart(chunk, this.errors));
  }

  private write(part: Record<string, unknown>): void {
    this.frames.write('', JSON.stringify(part));
  }

  private startPart(kind: 'text' | 'reasoning'): OpenPart {
    const id = `${kind}-${++this.parts}`;
    this.frames.write('', `{"type":"${kind}-start","id":"${id}"}`);
    return { id, deltaLine: `data: {"type":"${kind}-delta","id":"${id}","delta":` };
  }

  private endText(): void {
    if (this.text === undefined) return;
    this.frames.write('', `{"type":"text-end","id":"${this.text.id}"}`);
    this.text = undefined;
  }

  private endReasoning(): void {
    if (this.reasoning === undefined) return;
    this.frames.write('', `{"type":"reasoning-end","id":"${this.reasoning.id}"}`);
    this.reasoning = undefined;
  }

  private announce(toolCallId: string, toolName: string): void {
    if (this.announced.has(toolCallId)) return;
    this.announced.add(toolCallId);
    this.write({ type: 'tool-input-start', toolCallId, toolName });
  }

  private openStep(): void {
    if (this.stepOpen) return;
    this.stepOpen = true;
    this.stepsWritten++;
    this.frames.write('', START_STEP);
  }

  private closeStep(): void {
    this.endText();
    this.endReasoning();
    if (!this.stepOpen) return;
    this.stepOpen = false;
    this.frames.write('', FINISH_STEP);
  }
}

/**
 * The `'ai-sdk-ui'` protocol as an encoder: the AI SDK UI message stream v1, as `useChat` and
 * `readUIMessageStream` read it (sent with the header `x-vercel-ai-ui-message-stream: v1`).
 * Retry reasons, tool error results and the error part follow the `errorMessage` policy.
 *
 * @example
 * ```ts partial
 * import { toWebResponse, uiMessageStreamEncoder } from 'rx-advisors/sse';
 * return toWebResponse(chunks$, { protocol: uiMessageStreamEncoder }); // same as 'ai-sdk-ui'
 * ```
 */
export const uiMessageStreamEncoder: SseEncoder = {
  name: 'ai-sdk-ui',
  headers: { 'x-vercel-ai-ui-message-stream': 'v1' },
  create: (sink, { errors }) => new UiMessageStreamEncoder(eventLineWriter(sink), errors),
  resumeError: (message) =>
    frameWithoutId('', JSON.stringify({ type: 'error', errorText: message })) +
    frameWithoutId('', DONE),
};
