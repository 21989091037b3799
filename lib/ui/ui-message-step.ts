import type {
  AssistantMessage,
  Message,
  ReasoningPart,
  ToolCall,
  ToolMessage,
} from '../core/message.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { UiMessagePart } from './ui-message.js';
import { approvalResponse, toolOutcome } from './ui-tool-part-outcome.js';

/**
 * One model call's worth of an assistant UI message: its text, reasoning, tool calls and
 * their results or approval decisions, flushed as our messages.
 * @internal
 */
export class UiMessageStep {
  /** @param acceptApprovals Whether decisions are taken (else one is an error). */
  constructor(private readonly acceptApprovals: boolean) {}

  hasTools = false;
  private content = '';
  private readonly parts: ReasoningPart[] = [];
  private readonly calls: ToolCall[] = [];
  private readonly results: ToolMessage[] = [];
  /** Calls without an outcome: kept only in a step that has decisions (they run with them). */
  private readonly waiting: ToolCall[] = [];

  text(text: string): void {
    this.content += this.content === '' || text === '' ? text : `\n${text}`;
  }

  reasoning(part: UiMessagePart): void {
    const reasoning: ReasoningPart = { text: typeof part['text'] === 'string' ? part['text'] : '' };
    const metadata = part['providerMetadata'];
    if (typeof metadata === 'object' && metadata !== null) {
      reasoning.providerMetadata = metadata as ReasoningPart['providerMetadata'] & object;
    }
    this.parts.push(reasoning);
  }

  tool(name: string, part: UiMessagePart): void {
    const id = String(part['toolCallId']);
    const call = (): ToolCall => {
      const input = part['input'] === undefined ? (part['rawInput'] ?? {}) : part['input'];
      return { id, name, arguments: typeof input === 'string' ? input : JSON.stringify(input) };
    };
    const approval = approvalResponse(part);
    if (approval !== undefined) {
      if (!this.acceptApprovals) {
        throw new InvalidOptionsError({
          option: 'clientApprovals',
          value: false,
          expected:
            "true to take approval decisions from a client that holds the conversation (it could forge the call it approves), or history: 'memory'",
        });
      }
      // useChat's addToolApprovalResponse: the call and its decision (the loop runs it).
      this.hasTools = true;
      this.calls.push(call());
      this.results.push({ role: 'tool', toolCallId: id, name, content: '', approval });
      return;
    }
    const outcome = toolOutcome(part);
    if (outcome === undefined) {
      // A call of a round waiting for decisions that needs none itself runs with them.
      if (part['state'] === 'input-available') this.waiting.push(call());
      // Else (still streaming, awaiting approval) it is left out.
      return;
    }
    this.hasTools = true;
    this.calls.push(call());
    const result: ToolMessage = { role: 'tool', toolCallId: id, name, content: outcome.content };
    if (outcome.isError) result.isError = true;
    this.results.push(result);
  }

  /** Whether the step holds an approval decision. */
  get hasDecisions(): boolean {
    return this.results.some((result) => result.approval !== undefined);
  }

  /** The step's decision messages only. */
  decisions(): ToolMessage[] {
    return this.results.filter((result) => result.approval !== undefined);
  }

  flushInto(out: Message[]): void {
    if (this.hasDecisions) this.calls.push(...this.waiting);
    if (this.content === '' && this.calls.length === 0 && this.parts.length === 0) return;
    const message: AssistantMessage = { role: 'assistant', content: this.content };
    if (this.calls.length > 0) message.toolCalls = this.calls;
    if (this.parts.length > 0) message.reasoning = this.parts;
    out.push(message, ...this.results);
  }
}
