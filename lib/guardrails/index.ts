// rx-advisors/guardrails: input, output and tool guardrails on the stream, PII redaction
// (docs/guardrails.md). Explicit re-exports, grouped by role.

// The advisor
export { GuardrailsAdvisor } from './guardrails-advisor.js';
export type { GuardrailsAdvisorOptions } from './guardrails-advisor-options.js';

// What a guardrail is
export type {
  GuardrailAnswer,
  GuardrailContext,
  GuardrailVerdict,
  InputGuardrail,
  OutputGuardrail,
  OutputStreamCheck,
  ToolCallVerdict,
  ToolGuardrail,
  ToolResultVerdict,
} from './guardrail.js';
export type { GuardrailTrippedChunk } from '../core/chat-chunk.js';
export { GuardrailTrippedError, type GuardrailStage } from '../errors/guardrail-tripped-error.js';

// Built-in guardrails
export { wordGuardrail, type MessageScope, type WordGuardrailOptions } from './word-guardrail.js';

// PII redaction
export { piiRedaction, type PiiRedaction, type PiiRedactionOptions } from './pii/pii-redaction.js';
export type { PiiDetector, PiiSpan } from './pii/pii-detector.js';
export { PiiDetectors } from './pii/pii-detectors.js';

// A model as the judge
export { modelJudgeGuardrail, type ModelJudgeGuardrailOptions } from './model-judge-guardrail.js';
