import type { Advisor } from '../advisor/advisor.js';
import type { ChatRequest } from '../core/chat-request.js';

/** Options of {@link resolveAdvisors}. */
export interface ResolveAdvisorsOptions {
  /** The default advisors, then the call's own, in registration order. */
  advisors: readonly Advisor[];
  /** The call's first request. */
  request: ChatRequest;
}

/**
 * The advisors a ChatClient call runs: the registered ones, plus those the client adds
 * on its own (the tool loop, when the call has tools).
 * @internal
 * @param options Registered advisors and the call's request.
 * @returns The advisors to chain (unsorted).
 */
export function resolveAdvisors(options: ResolveAdvisorsOptions): readonly Advisor[] {
  return options.advisors;
}
