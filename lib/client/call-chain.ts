import { createAdvisorChain } from '../advisor-api/advisor-chain.js';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ClientDefaults } from './client-defaults.js';
import { withoutRedundantInstructions } from './entity-call-advisors.js';
import { addedAdvisor, resolveAdvisors } from './resolve-advisors.js';

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
 * The chains of calls that add no advisors, per client and per advisor the call gets added
 * (none, the no-tools guard, one of the two auto-registered loops). A chain holds no state
 * of a call (each advisor keeps that inside its subscription), so such calls share one.
 */
const sharedChains = new WeakMap<ClientDefaults, Map<Advisor | undefined, AdvisorChain>>();

/**
 * The advisor chain of one ChatClient call: the default advisors, the call's own and the
 * advisor {@link resolveAdvisors} adds, sorted, ending with the client's model. A call that
 * adds no advisors (the common case) gets a chain built once per client and reused, so its
 * first chunk pays no sorting and no checks of the default advisors.
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
  const added = addedAdvisor({ advisors: defaults.advisors, request });
  let chains = sharedChains.get(defaults);
  if (chains === undefined) {
    chains = new Map();
    sharedChains.set(defaults, chains);
  }
  let chain = chains.get(added);
  if (chain === undefined) {
    const advisors = added === undefined ? defaults.advisors : [...defaults.advisors, added];
    chain = createAdvisorChain({ advisors, model });
    chains.set(added, chain);
  }
  return chain;
}
