import {
  context as otelContext,
  SpanKind,
  trace,
  type Attributes,
  type Context,
} from '@opentelemetry/api';
import { AdvisorParams } from '../advisor-api/advisor-params.js';
import { parentCallOf } from '../advisor-api/parent-call.js';
import type { RequestChatModel } from '../core/chat-request.js';
import { toAttributeValue } from './attribute-value.js';
import { CallTelemetry, type RunningTool } from './call-telemetry.js';
import { GenAi, RxAttributes } from './gen-ai-conventions.js';
import { TelemetrySpan } from './telemetry-span.js';

/** The `request.context` key of a call's {@link CallTelemetry}. */
const KEY = 'rx-advisors.otel.call';

/**
 * The `request.context` key under which an agent tool or a handoff records who runs a
 * nested call (`lib/agents/agent-frame.ts`; read here by its key, since `otel/` sits
 * below `agents/` in the layers): `{ name, path }`.
 */
const AGENT_FRAME_KEY = 'rx-advisors.agent';

/** Who runs a nested call, as the agents record it. @internal */
export interface AgentIdentity {
  readonly name: string;
  readonly path: readonly string[];
}

/**
 * The telemetry of a call, when it has one.
 * @internal
 * @example
 * ```ts
 * callTelemetryOf(request.context)?.span;
 * ```
 * @param context A call's `request.context`.
 * @returns Its telemetry, or `undefined`.
 */
export function callTelemetryOf(context: ReadonlyMap<string, unknown>): CallTelemetry | undefined {
  const found = context.get(KEY);
  return found instanceof CallTelemetry ? found : undefined;
}

/**
 * Records a call's telemetry in its `request.context`, where nested calls look for it.
 * @internal
 * @param context The call's `request.context`.
 * @param call Its telemetry.
 */
export function setCallTelemetry(context: Map<string, unknown>, call: CallTelemetry): void {
  context.set(KEY, call);
}

/**
 * The telemetry of the nearest call above this one that has one (through
 * `ContextKeys.PARENT_CALL`), or `undefined` for a top-level call.
 * @internal
 * @param context A call's `request.context`.
 * @returns The ancestor's telemetry.
 */
export function ancestorTelemetry(
  context: ReadonlyMap<string, unknown>,
): CallTelemetry | undefined {
  const seen = new Set<ReadonlyMap<string, unknown>>([context]);
  for (let call = parentCallOf(context); call !== undefined; call = parentCallOf(call)) {
    if (seen.has(call)) return undefined;
    seen.add(call);
    const found = callTelemetryOf(call);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The agent that runs a call (an agent tool's or a handoff's nested call), when one does.
 * @internal
 * @param context A call's `request.context`.
 * @returns Its name and path of agents.
 */
export function agentOf(context: ReadonlyMap<string, unknown>): AgentIdentity | undefined {
  const frame = context.get(AGENT_FRAME_KEY) as Partial<AgentIdentity> | null | undefined;
  if (typeof frame !== 'object' || frame === null || typeof frame.name !== 'string') {
    return undefined;
  }
  return { name: frame.name, path: Array.isArray(frame.path) ? frame.path : [frame.name] };
}

/**
 * Where a nested call's span starts: the ancestor's tool span that runs it. The active
 * context's span when it is one of the ancestor's running tools (exact, with a context
 * manager); else the first running tool of the agent's name no nested call took yet (the
 * order tools start in is the order their nested calls start in); else the ancestor's call
 * span (a handoff runs its target after the tool loop).
 * @internal
 * @param ancestor The nearest ancestor's telemetry.
 * @param agent The agent that runs the nested call.
 * @returns The parent context, and the tool span when it is one.
 */
export function nestedParent(
  ancestor: CallTelemetry,
  agent: AgentIdentity | undefined,
): { readonly context: Context; readonly tool: RunningTool | undefined } {
  const running = ancestor.runningTools;
  const active = trace.getSpan(otelContext.active());
  const tool =
    running.find((candidate) => candidate.span.span === active) ??
    running.find((candidate) => !candidate.claimed && candidate.name === agent?.name);
  if (tool === undefined) return { context: ancestor.span.context, tool: undefined };
  tool.claimed = true;
  return { context: tool.span.context, tool };
}

/**
 * The attributes of a nested agent's call span (`invoke_agent {name}`): the operation,
 * the agent's name, path and description (the tool's that runs it).
 * @internal
 * @param agent The agent, when known.
 * @param tool The tool span the call runs under, when it does.
 * @param maxLength The longest string kept.
 * @returns The attributes.
 */
export function agentAttributes(
  agent: AgentIdentity | undefined,
  tool: RunningTool | undefined,
  maxLength: number,
): Attributes {
  const attributes: Attributes = { [GenAi.OPERATION_NAME]: GenAi.OPERATION_INVOKE_AGENT };
  if (agent !== undefined) {
    attributes[GenAi.AGENT_NAME] = agent.name;
    const path = toAttributeValue([...agent.path], maxLength);
    if (path !== undefined) attributes[RxAttributes.AGENT_PATH] = path;
  }
  const description = toAttributeValue(tool?.description, maxLength);
  if (description !== undefined) attributes[GenAi.AGENT_DESCRIPTION] = description;
  return attributes;
}

/**
 * The span name of a nested agent's call.
 * @internal
 * @param agent The agent, when known.
 * @returns `invoke_agent {name}`, or `invoke_agent`.
 */
export function agentSpanName(agent: AgentIdentity | undefined): string {
  return agent === undefined
    ? GenAi.OPERATION_INVOKE_AGENT
    : `${GenAi.OPERATION_INVOKE_AGENT} ${agent.name}`;
}

/**
 * The telemetry that `root`'s interceptors trace a call with: the call's own when `root`
 * traces it, `undefined` when another advisor does (a nested client with its own
 * `OpenTelemetryAdvisor`) or nobody does. A nested call with no telemetry of its own
 * under a call `root` traces gets one here, on its first model call: an `invoke_agent`
 * span under the tool span that runs it, ended with that tool span (or with the ancestor's
 * call span when no tool runs it).
 * @internal
 * @example
 * ```ts
 * const call = tracedBy(request.context, root, model);
 * ```
 * @param context The call's `request.context`.
 * @param root The root telemetry whose interceptors ask.
 * @param model The model of the call's first model call (its provider and default model).
 * @returns The telemetry, or `undefined`.
 */
export function tracedBy(
  context: Map<string, unknown>,
  root: CallTelemetry,
  model: RequestChatModel | undefined,
): CallTelemetry | undefined {
  const own = callTelemetryOf(context);
  if (own !== undefined) return own.root === root ? own : undefined;
  const ancestor = ancestorTelemetry(context);
  if (ancestor?.root !== root) return undefined;
  const agent = agentOf(context);
  const { settings } = root;
  const parent = nestedParent(ancestor, agent);
  const attributes = agentAttributes(agent, parent.tool, settings.maxAttributeLength);
  if (model !== undefined) {
    attributes[GenAi.PROVIDER_NAME] = model.provider;
    if (model.defaultModel !== undefined) attributes[GenAi.REQUEST_MODEL] = model.defaultModel;
  }
  const conversation = toAttributeValue(
    context.get(AdvisorParams.CONVERSATION_ID),
    settings.maxAttributeLength,
  );
  if (conversation !== undefined) attributes[GenAi.CONVERSATION_ID] = conversation;
  const span = TelemetrySpan.start(
    settings.tracer,
    agentSpanName(agent),
    { kind: SpanKind.INTERNAL, attributes },
    parent.context,
  );
  const nested = new CallTelemetry(settings, span, model?.provider, root);
  (parent.tool?.nested ?? ancestor.nestedCalls).push(nested);
  setCallTelemetry(context, nested);
  return nested;
}
