// Consumer check of `rx-advisors/advisor-api` (see root.ts): an advisor class written against
// the contract, and a recursive advisor.
import type { ChatChunk, ChatRequest } from 'rx-advisors';
import {
  ContextKeys,
  Order,
  recursiveAdvisor,
  ToolLoopTranscript,
  type Advisor,
  type AdvisorChain,
  type RecursionState,
} from 'rx-advisors/advisor-api';
import { defer, type Observable } from 'rxjs';

export class CountingAdvisor implements Advisor {
  readonly name = 'counting';
  readonly order = Order.DEFAULT;
  calls = 0;

  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      this.calls += 1;
      const transcript = ToolLoopTranscript.of(request.context);
      request.context.set(`${ContextKeys.TOOL_LOOP_MESSAGES}.mark`, transcript.mark());
      return chain.next(request);
    });
  }
}

export const nonEmpty: Advisor = recursiveAdvisor({
  name: 'non-empty',
  order: Order.DEFAULT,
  next: ({ attempt, response, request }: RecursionState) =>
    response?.text === '' && attempt < 2 ? request : undefined,
});
