import { createAdvisorChain } from '../advisor-api/advisor-chain.js';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ClientDefaults } from './client-defaults.js';
import { withoutRedundantInstructions } from './entity-call-advisors.js';
import {
  addedAdvisorOf,
  advisorFacts,
  resolveAdvisors,
  type AdvisorFacts,
} from './resolve-advisors.js';

/** Options of {@link callChain}. */
export interface CallChainOptions {
  /** The client's defaults (its model and default advisors). */
  defaults: ClientDefaults;
  /** The advisors this call adds (`prompt().advisors(...)`, `entity()`'s), in order. */
  callAdvisors: readonly Advisor[];
  /** The call's first request. */
  request: ChatRequest;
}

/**
 * What a client's calls that add no advisors share: the facts about the default advisors
 * that decide the advisor a call gets added (read once: an advisor's roles are read-only),
 * and the chain per added advisor (none, the no-tools guard, one of the two
 * auto-registered loops). A chain holds no state of a call (each advisor keeps that inside
 * its subscription), so such calls share one.
 */
interface SharedChains {
  readonly facts: AdvisorFacts;
  readonly chains: Map<Advisor | undefined, AdvisorChain>;
}

const sharedChains = new WeakMap<ClientDefaults, SharedChains>();

/**
 * The advisor chain of one ChatClient call: the default advisors, the call's own and the
 * advisor {@link resolveAdvisors} adds, sorted, ending with the client's model. A call that
 * adds no advisors (the common case) gets a chain built once per client and reused, so its
 * first chunk pays no sorting, no checks of the default advisors and no scan of their roles.
 * @internal
 * @example
 * ```ts
 * callChain({ defaults, callAdvisors: [], request }).next(request).subscribe();
 * ```
 * @param options The client's defaults, the call's advisors and its request.
 * @returns The chain at its first advisor.
 */
export function callChain(options: CallChainOptions): AdvisorChain {
  const { defaults, callAdvisors, request } = options;
  const { model } = defaults;
  if (callAdvisors.length > 0) {
    const registered = withoutRedundantInstructions([...defaults.advisors, ...callAdvisors]);
    return createAdvisorChain({
      advisors: resolveAdvisors({ advisors: registered, request }),
      model,
    });
  }
  let shared = sharedChains.get(defaults);
  if (shared === undefined) {
    // Throws (every call, as nothing is kept) when the defaults hold two tool loops.
    shared = { facts: advisorFacts(defaults.advisors), chains: new Map() };
    sharedChains.set(defaults, shared);
  }
  const added = addedAdvisorOf(shared.facts, request);
  let chain = shared.chains.get(added);
  if (chain === undefined) {
    const advisors = added === undefined ? defaults.advisors : [...defaults.advisors, added];
    chain = createAdvisorChain({ advisors, model });
    shared.chains.set(added, chain);
  }
  return chain;
}
