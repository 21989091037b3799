/**
 * `rx-advisors/otel`: OpenTelemetry traces and metrics for ChatClient calls, model calls,
 * tools and advisors, over `@opentelemetry/api` (an optional peer dependency).
 * See docs/observability.md.
 * @packageDocumentation
 */
export { OpenTelemetryAdvisor } from './open-telemetry-advisor.js';
export {
  TelemetryParams,
  type OpenTelemetryAdvisorOptions,
} from './open-telemetry-advisor-options.js';
