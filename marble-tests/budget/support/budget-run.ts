// What the BudgetAdvisor marble specs share: chunk builders and the chain they run.
import type { Observable } from 'rxjs';
import type { Advisor } from '../../../lib/advisor-api/advisor.js';
import { createAdvisorChain } from '../../../lib/advisor-api/advisor-chain.js';
import { BudgetAdvisor } from '../../../lib/budget/budget-advisor.js';
import type { BudgetAdvisorOptions } from '../../../lib/budget/budget-advisor-options.js';
import type { ChatChunk } from '../../../lib/core/chat-chunk.js';
import type { ChatModel } from '../../../lib/core/chat-model.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import type { Tool } from '../../../lib/core/tool.js';
import { ToolCallingAdvisor } from '../../../lib/tools/tool-calling-advisor.js';

export const text = (t: string): ChatChunk => ({ type: 'text-delta', text: t });
export const call = (id: string, name: string): ChatChunk => ({
  type: 'tool-call',
  id,
  name,
  arguments: '{}',
});
export const finish = (reason: 'stop' | 'tool-calls' | 'length'): ChatChunk => ({
  type: 'finish',
  reason,
});
/** Eight characters: two tokens by the default estimate. */
export const two = 'abcdefgh';

/** A BudgetAdvisor (and, with `loop`, the tool loop inside it) over `model`. */
export function run$(
  model: ChatModel,
  budget: BudgetAdvisorOptions,
  { tools = [], loop = false }: { tools?: Tool[]; loop?: boolean } = {},
): Observable<ChatChunk> {
  const advisors: Advisor[] = [new BudgetAdvisor(budget)];
  if (loop) advisors.push(new ToolCallingAdvisor());
  const chain = createAdvisorChain({ advisors, model });
  // '' as the user's text: no input tokens estimated.
  return chain.next(ChatRequest.create({ messages: [{ role: 'user', content: '' }], tools }));
}
