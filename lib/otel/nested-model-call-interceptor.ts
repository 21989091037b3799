import type { ModelCallInterceptor } from '../advisor-api/model-call-interceptor.js';
import type { CallTelemetry } from './call-telemetry.js';
import { tracedBy } from './nested-call.js';
import { tracedModelCall } from './traced-model-call.js';

/**
 * The model-call interceptor the telemetry advisor registers with `inherit`: the model
 * calls of a nested call that has no `OpenTelemetryAdvisor` of its own (an agent tool's
 * client) get their `chat {model}` spans, under that call's `invoke_agent` span (made on
 * its first model call, see {@link tracedBy}). The advisor's own call, and a nested call
 * with an advisor of its own, pass through: their model calls are traced by their
 * advisor's chain (one map lookup per model call).
 * @internal
 * @example
 * ```ts
 * CallInterceptors.of(request.context).onModelCall(advisor, nestedModelCallInterceptor(call), { inherit: true });
 * ```
 * @param root The telemetry of the call whose advisor registers it.
 * @returns The interceptor.
 */
export function nestedModelCallInterceptor(root: CallTelemetry): ModelCallInterceptor {
  return ({ request, model }, proceed) => {
    const call = tracedBy(request.context, root, model);
    if (call === undefined || !call.isInherited) return proceed(request);
    return tracedModelCall(call, request, model, call.span.context, proceed(request));
  };
}
