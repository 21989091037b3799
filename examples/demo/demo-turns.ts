import { defer, finalize, from, switchMap, tap, type Observable } from 'rxjs';
import type {
  ChatChunk,
  ChatMemory,
  Message,
  Source,
  ToolCall,
  ToolMessage,
  Usage,
} from '../../lib/index.js';

/** What the page shows under an answer: what is known of it, nothing invented. */
export interface TurnSummary {
  usage?: Usage;
  rounds?: number;
  finish?: string;
  /** The documents retrieved for the question (`source` chunks), shown under the answer. */
  sources?: Source[];
  /** Set when the answer did not complete: Stop, a closed tab, or an error. */
  interrupted?: 'stopped' | 'failed';
}

/** One entry of `GET /api/history`: a message, and under final answers their summary. */
export type HistoryEntry =
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string;
      toolCalls?: { id: string; name: string; arguments: string }[];
      summary?: TurnSummary;
    }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

interface Interrupted {
  text: string;
  toolCalls: ToolCall[];
  toolResults: ToolMessage[];
  summary: TurnSummary;
}

/**
 * The demo's turns around the chat memory. An interrupted turn (Stop, a tab closed for longer
 * than the resume ttl, a failed stream) is the user's message and the partial answer, saved
 * as an assistant message ending with "(stopped)" or "(failed)": the memory advisor saves
 * only the user's message of such a turn, so without this the next question would follow it
 * as a second user turn in a row. Also keeps each answer's usage, model calls and finish
 * reason for the history (in this process: a restarted server shows none for old turns).
 *
 * @example
 * ```ts partial
 * const turns = new DemoTurns(chatMemory);
 * const chunks$ = turns.track(conversationId, client.prompt(message).stream().chunks());
 * const history = await turns.history(conversationId);
 * ```
 */
export class DemoTurns {
  private readonly running = new Set<string>();
  private readonly interrupted = new Map<string, Interrupted>();
  private readonly summaries = new Map<string, TurnSummary[]>();

  /** @param chatMemory The memory the chat client's memory advisor uses. */
  constructor(private readonly chatMemory: ChatMemory) {}

  /**
   * One turn's chunks, watched: the previous interrupted turn is closed in memory first,
   * and this one's outcome is kept for the history.
   * @param conversationId The conversation (the browser session).
   * @param chunks$ The turn's chunks (cold).
   * @returns The same chunks.
   */
  track(conversationId: string, chunks$: Observable<ChatChunk>): Observable<ChatChunk> {
    return defer(() => {
      let text = '';
      const toolCalls: ToolCall[] = [];
      const toolResults: ToolMessage[] = [];
      let outcome: 'complete' | 'failed' | undefined;
      const summary: TurnSummary = {};
      return from(this.closeInterrupted(conversationId)).pipe(
        tap(() => this.running.add(conversationId)),
        switchMap(() => chunks$),
        tap({
          next: (chunk) => {
            if (chunk.type === 'text-delta') text += chunk.text;
            else if (chunk.type === 'tool-call') {
              const { id, name, arguments: args } = chunk;
              toolCalls.push({ id, name, arguments: args });
            } else if (chunk.type === 'tool-result') {
              const { id, name, content, isError } = chunk;
              toolResults.push({
                role: 'tool',
                toolCallId: id,
                name,
                content,
                ...(isError ? { isError } : {}),
              });
            } else if (chunk.type === 'usage') summary.usage = chunk.usage;
            else if (chunk.type === 'metadata' && chunk.rounds !== undefined) {
              summary.rounds = chunk.rounds;
            } else if (chunk.type === 'finish') summary.finish = chunk.reason;
            else if (chunk.type === 'source') {
              const { type: _type, ...source } = chunk;
              (summary.sources ??= []).push(source);
            }
          },
          complete: () => (outcome = 'complete'),
          error: () => (outcome = 'failed'),
        }),
        finalize(() => {
          this.running.delete(conversationId);
          if (outcome === 'complete') this.addSummary(conversationId, summary);
          else {
            const interrupted = outcome ?? 'stopped';
            this.interrupted.set(conversationId, {
              text,
              toolCalls,
              toolResults,
              summary: { ...summary, interrupted },
            });
          }
        }),
      );
    });
  }

  /**
   * The conversation as the page shows it after a reload: user messages, tool calls and
   * results, answers with their summaries.
   * @param conversationId The conversation.
   * @returns The entries, oldest first.
   */
  async history(conversationId: string): Promise<HistoryEntry[]> {
    await this.closeInterrupted(conversationId);
    const messages = await this.chatMemory.get(conversationId);
    const entries: HistoryEntry[] = [];
    for (const m of messages) {
      if (m.role === 'user') entries.push({ role: 'user', content: m.content });
      else if (m.role === 'tool') {
        const { toolCallId, name, content, isError } = m;
        entries.push({ role: 'tool', toolCallId, name, content, ...(isError ? { isError } : {}) });
      } else if (m.role === 'assistant') {
        const toolCalls = m.toolCalls?.map(({ id, name, arguments: args }) => ({
          id,
          name,
          arguments: args,
        }));
        entries.push({
          role: 'assistant',
          content: m.content,
          ...(toolCalls?.length ? { toolCalls } : {}),
        });
      }
    }
    // Summaries belong to final answers (assistant messages without tool calls), matched
    // from the end: the memory window drops the oldest messages, never the newest.
    const finals = entries.filter(
      (e): e is Extract<HistoryEntry, { role: 'assistant' }> =>
        e.role === 'assistant' && e.toolCalls === undefined,
    );
    const summaries = this.summaries.get(conversationId) ?? [];
    for (let i = 1; i <= Math.min(finals.length, summaries.length); i++) {
      finals[finals.length - i].summary = summaries[summaries.length - i]!;
    }
    return entries;
  }

  /** Forgets a conversation's summaries (the page's "New chat"). */
  forget(conversationId: string): void {
    this.summaries.delete(conversationId);
    this.interrupted.delete(conversationId);
  }

  /** Saves the partial answer of an interrupted turn, unless a turn is running. */
  private async closeInterrupted(conversationId: string): Promise<void> {
    if (this.running.has(conversationId)) return;
    const messages: Message[] = await this.chatMemory.get(conversationId);
    const last = messages[messages.length - 1];
    const interrupted = this.interrupted.get(conversationId);
    this.interrupted.delete(conversationId);
    if (last?.role !== 'user') return;
    const mark = interrupted?.summary.interrupted ?? 'stopped';
    const text = interrupted?.text ?? '';
    // The tool calls the page showed, with the results that arrived (a call left without
    // one is dropped when the conversation is sent), then the partial answer.
    const { toolCalls = [], toolResults = [] } = interrupted ?? {};
    await this.chatMemory.add(conversationId, [
      ...(toolCalls.length > 0 ? [{ role: 'assistant' as const, content: '', toolCalls }] : []),
      ...toolResults,
      { role: 'assistant', content: text === '' ? `(${mark})` : `${text} (${mark})` },
    ]);
    this.addSummary(conversationId, interrupted?.summary ?? { interrupted: mark });
  }

  private addSummary(conversationId: string, summary: TurnSummary): void {
    const list = this.summaries.get(conversationId) ?? [];
    list.push(summary);
    this.summaries.set(conversationId, list);
  }
}
