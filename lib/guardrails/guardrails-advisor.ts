import { catchError, defer, from, type Observable, throwError } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import { validateOptions, withDefaults } from '../core/validate-options.js';
import { GuardrailTrippedError } from '../errors/guardrail-tripped-error.js';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { CallInterceptors } from '../advisor-api/call-interceptors.js';
import { guardOutput } from './guard-output.js';
import {
  GUARDRAILS_ADVISOR_DEFAULTS,
  GUARDRAILS_ADVISOR_RULES,
  type GuardrailsAdvisorOptions,
  type GuardrailsAdvisorSettings,
} from './guardrails-advisor-options.js';
import { holdUntilPassed } from './hold-until-passed.js';
import { inputGate } from './input-gate.js';
import { redactStream } from './pii/pii-redaction.js';
import { toolGuardrailInterceptor } from './tool-guardrail-interceptor.js';
import { trippedChunks } from './tripped-chunks.js';

/** A call without input guardrails: no verdict to wait for. */
const NO_GATE = { shared$: undefined, gate: undefined } as const;

/**
 * Guardrails on the stream (docs/guardrails.md). Input guardrails run in parallel with the
 * first model call; nothing of the answer leaves, and no tool runs, until every one has
 * passed; a trip aborts the model request. Output guardrails check the answer on a sliding
 * window with a hold-back, so a phrase split across chunks is caught before its first
 * character leaves; `redact` (PII redaction) rewrites the answer before they see it, with a
 * carry-over across chunks. Tool guardrails check a call before it runs and its result before the
 * model sees it, or ask for approval (through the tool-call interceptor seam).
 *
 * A trip ends the stream with a `guardrail-tripped` chunk (withdrawing what the answer said,
 * by default), the replacement text and `finish` (`content-filter`); with `onTrip: 'error'`
 * the stream fails with a `GuardrailTrippedError` instead.
 *
 * @example
 * ```ts
 * import { ChatClient } from 'rx-advisors';
 * import { GuardrailsAdvisor, piiRedaction, wordGuardrail } from 'rx-advisors/guardrails';
 *
 * const noSecrets = wordGuardrail({ name: 'no-secrets', words: ['project zebra'] });
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new GuardrailsAdvisor({ input: [noSecrets], output: [noSecrets], redact: piiRedaction() }))
 *   .build();
 * ```
 */
export class GuardrailsAdvisor implements Advisor {
  readonly name: string;
  readonly order: number;
  private readonly options: GuardrailsAdvisorSettings;

  /**
   * @param options The guardrails, what a trip does, order and name.
   * @throws InvalidOptionsError When an option is invalid.
   */
  constructor(options: GuardrailsAdvisorOptions = {}) {
    this.options = withDefaults(
      GUARDRAILS_ADVISOR_DEFAULTS,
      validateOptions(options, GUARDRAILS_ADVISOR_RULES),
    );
    this.name = this.options.name;
    this.order = this.options.order;
  }

  /**
   * Runs the call behind the guardrails.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The guarded chunks.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const { input, output, tools, redact, onTrip, onTripped } = this.options;
      const { shared$, gate } = input.length === 0 ? NO_GATE : inputGate(input, request);
      if (gate !== undefined || tools.length > 0) {
        CallInterceptors.of(request.context).onToolCall(
          this,
          toolGuardrailInterceptor({ guardrails: tools, gate }),
        );
      }
      let chunks$ = chain.next(request);
      if (shared$ !== undefined) chunks$ = chunks$.pipe(holdUntilPassed<ChatChunk>(shared$));
      if (redact !== undefined) chunks$ = chunks$.pipe(redactStream(redact));
      if (output.length > 0) chunks$ = chunks$.pipe(guardOutput(output));
      return chunks$.pipe(
        catchError((error: unknown) => {
          if (!GuardrailTrippedError.isInstance(error)) return throwError(() => error);
          onTripped?.(error);
          if (onTrip === 'error') return throwError(() => error);
          return from(trippedChunks(error, this.options));
        }),
      );
    });
  }
}
