import {
  context,
  metrics as globalMetrics,
  SpanKind,
  trace,
  type Attributes,
  type MeterProvider,
  type Tracer,
} from '@opentelemetry/api';
import { defer, type Observable, type Subscriber } from 'rxjs';
import { ADVISE_INTO, subscribeNow } from '../advisor-api/advisor-chain.js';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { AdvisorParams } from '../advisor-api/advisor-params.js';
import { CallInterceptors } from '../advisor-api/call-interceptors.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import { validateOptions, withDefaults } from '../core/validate-options.js';
import { toAttributes, toAttributeValue } from './attribute-value.js';
import { CallTelemetry, type TelemetrySettings } from './call-telemetry.js';
import { GenAi } from './gen-ai-conventions.js';
import {
  OPEN_TELEMETRY_ADVISOR_DEFAULTS,
  OPEN_TELEMETRY_ADVISOR_RULES,
  TelemetryParams,
  type OpenTelemetryAdvisorOptions,
} from './open-telemetry-advisor-options.js';
import { CallWatcher } from './call-watcher.js';
import {
  agentAttributes,
  agentOf,
  agentSpanName,
  ancestorTelemetry,
  nestedParent,
  setCallTelemetry,
} from './nested-call.js';
import { nestedModelCallInterceptor } from './nested-model-call-interceptor.js';
import { observeStream, watchInto } from './observe-stream.js';
import { TelemetryMetrics } from './telemetry-metrics.js';
import { TelemetrySpan } from './telemetry-span.js';
import { toolSpanInterceptor } from './tool-span-interceptor.js';
import { TracedChain } from './traced-chain.js';

/** The instrumentation scope of every span and instrument. */
const SCOPE = 'rx-advisors';

type ResolvedOptions = typeof OPEN_TELEMETRY_ADVISOR_DEFAULTS & OpenTelemetryAdvisorOptions;

/**
 * OpenTelemetry traces and metrics for a ChatClient, following the GenAI semantic
 * conventions (1.45.0): one span per call (the whole stream), a `chat {model}` span per
 * model call (each tool-loop round, each retry), an `execute_tool {name}` span per tool
 * execution (a child of the model call that asked for it, and the active context while
 * the tool runs), optional advisor spans, `retry` chunks as span events, and the GenAI
 * client metrics. Place it outermost (its default order). Every span ends exactly once:
 * on completion, on error (status ERROR, `error.type`) or on unsubscribe
 * (`rx_advisors.cancelled`). A broken tracer, processor or meter never breaks the stream.
 * See docs/observability.md.
 *
 * @example
 * ```ts
 * import { ChatClient } from 'rx-advisors';
 * import { OpenTelemetryAdvisor } from 'rx-advisors/otel';
 *
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new OpenTelemetryAdvisor({ recordContent: false }))
 *   .build();
 * ```
 */
export class OpenTelemetryAdvisor implements Advisor {
  readonly name: string;
  readonly order: number;
  private readonly options: ResolvedOptions;
  private readonly tracer: Tracer;
  private readonly ownMetrics: TelemetryMetrics | undefined;
  private globalMetrics: { provider: MeterProvider; metrics: TelemetryMetrics } | undefined;
  private resolved: TelemetrySettings | undefined;

  /** @param options Providers, content recording, advisor spans, attributes; all optional. */
  constructor(options: OpenTelemetryAdvisorOptions = {}) {
    this.options = withDefaults(
      OPEN_TELEMETRY_ADVISOR_DEFAULTS,
      validateOptions(options, OPEN_TELEMETRY_ADVISOR_RULES),
    );
    this.name = this.options.name;
    this.order = this.options.order;
    // The global provider is a proxy: a provider registered later still receives spans.
    this.tracer = (this.options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
    const { meterProvider } = this.options;
    this.ownMetrics =
      meterProvider === undefined ? undefined : new TelemetryMetrics(meterProvider.getMeter(SCOPE));
  }

  /**
   * Runs the rest of the chain inside the call span, with model-call, tool and advisor
   * spans; passes every chunk through unchanged.
   * @param request The call's request.
   * @param chain The rest of the chain.
   * @returns The chain's chunks.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const started = this.start(request, chain);
      if (started === undefined) return chain.next(request);
      const { call, traced } = started;
      const downstream$ = traced === undefined ? chain.next(request) : traced.next(request);
      return observeStream(downstream$, call.span.context, () => new CallWatcher(call));
    });
  }

  /**
   * `advise(request, chain).subscribe(subscriber)` at the call's subscription: the call's
   * watcher rides on `subscriber` when it can carry one (`stream().content()`'s: no
   * subscriber layer per chunk), else one layer of its own.
   * @param request The call's request.
   * @param chain The rest of the chain.
   * @param subscriber The call's subscriber.
   * @internal
   */
  [ADVISE_INTO](
    request: ChatRequest,
    chain: AdvisorChain,
    subscriber: Subscriber<ChatChunk>,
  ): void {
    const started = this.start(request, chain);
    if (started === undefined) {
      subscribeNow(chain, request, subscriber);
      return;
    }
    const { call, traced } = started;
    const run = (into: Subscriber<ChatChunk>): void => {
      if (traced === undefined) subscribeNow(chain, request, into);
      else traced.runInto(request, into);
    };
    const watcher = new CallWatcher(call);
    if (!watcher.rideOn(subscriber)) {
      watchInto(subscriber, watcher, call.span.context, run);
      return;
    }
    context.with(call.span.context, run, undefined, subscriber);
    // After the chain's own teardown, as a layer's would run: an early unsubscribe cancels.
    subscriber.add(watcher);
  }

  /**
   * The call's telemetry and the traced rest of the chain; undefined when the call is not
   * traced (turned off for the request, or the API's no-op tracer and meter).
   */
  private start(
    request: ChatRequest,
    chain: AdvisorChain,
  ): { call: CallTelemetry; traced: TracedChain | undefined } | undefined {
    if (request.context.get(TelemetryParams.ENABLED) === false) return undefined;
    const position = chain.advisors.indexOf(this);
    const chatModel = request.chatModel ?? chain.model;
    const provider = chatModel?.provider;
    const settings = this.settings();
    // A nested call (an agent tool's, a handoff's) starts under the tool span of the
    // traced call that runs it: one trace for the tree.
    const ancestor = ancestorTelemetry(request.context);
    const agent = agentOf(request.context);
    const nested = ancestor === undefined ? undefined : nestedParent(ancestor, agent);
    const isAgent = agent !== undefined || ancestor !== undefined;
    const span = TelemetrySpan.start(
      this.tracer,
      isAgent ? agentSpanName(agent) : `${GenAi.OPERATION_INVOKE_WORKFLOW} ${this.name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: this.callAttributes(
          request,
          provider,
          chatModel?.defaultModel,
          isAgent
            ? agentAttributes(agent, nested?.tool, this.options.maxAttributeLength)
            : undefined,
        ),
      },
      nested?.context ?? context.active(),
    );
    if (!span.isRecording && settings.metrics.isNoop) {
      // The API's no-op tracer and meter (no SDK): no per-chunk or per-round work at all.
      span.end();
      return undefined;
    }
    const call = new CallTelemetry(settings, span, provider);
    setCallTelemetry(request.context, call);
    // A chain that does not list this advisor: only the call span is possible.
    if (position === -1) return { call, traced: undefined };
    const last = chain.advisors[chain.advisors.length - 1];
    const end = last === undefined || last === this ? chain : chain.copy(last);
    // Inherited: nested calls with no telemetry advisor of their own are traced too.
    CallInterceptors.of(request.context)
      .onToolCall(this, { execute: toolSpanInterceptor(call) }, { inherit: true })
      .onModelCall(this, nestedModelCallInterceptor(call), { inherit: true });
    return { call, traced: new TracedChain(chain.advisors, position + 1, end, call, span.context) };
  }

  /** The same object for every call while the instruments stay the same. */
  private settings(): TelemetrySettings {
    const metrics = this.metrics();
    if (this.resolved?.metrics === metrics) return this.resolved;
    const { recordContent, advisorSpans, maxAttributeLength } = this.options;
    this.resolved = {
      tracer: this.tracer,
      metrics,
      recordContent,
      advisorSpans,
      maxAttributeLength,
    };
    return this.resolved;
  }

  /** The instruments: the option's meter provider, or the global one as it is now. */
  private metrics(): TelemetryMetrics {
    if (this.ownMetrics !== undefined) return this.ownMetrics;
    const provider = globalMetrics.getMeterProvider();
    if (this.globalMetrics?.provider !== provider) {
      this.globalMetrics = { provider, metrics: new TelemetryMetrics(provider.getMeter(SCOPE)) };
    }
    return this.globalMetrics.metrics;
  }

  private callAttributes(
    request: ChatRequest,
    provider: string | undefined,
    defaultModel: string | undefined,
    agent: Attributes | undefined,
  ): Attributes {
    const { maxAttributeLength } = this.options;
    // One object, the extra attributes first (the conventions' own override them).
    let attributes: Attributes = {};
    try {
      const option = this.options.attributes;
      if (option !== undefined) attributes = toAttributes(option(request), maxAttributeLength);
    } catch {
      // A throwing attributes callback costs its attributes, never the call.
    }
    const fromContext = request.context.get(TelemetryParams.ATTRIBUTES);
    if (fromContext !== undefined) {
      Object.assign(attributes, toAttributes(fromContext, maxAttributeLength));
    }
    if (agent === undefined) {
      attributes[GenAi.OPERATION_NAME] = GenAi.OPERATION_INVOKE_WORKFLOW;
      attributes[GenAi.WORKFLOW_NAME] = this.name;
    } else Object.assign(attributes, agent);
    if (provider !== undefined) attributes[GenAi.PROVIDER_NAME] = provider;
    const model = request.options.model ?? defaultModel;
    if (model !== undefined) attributes[GenAi.REQUEST_MODEL] = model;
    const conversation = toAttributeValue(
      request.context.get(AdvisorParams.CONVERSATION_ID),
      maxAttributeLength,
    );
    if (conversation !== undefined) attributes[GenAi.CONVERSATION_ID] = conversation;
    return attributes;
  }
}
