// Consumer check of `rx-advisors/otel` (see root.ts).
import { ChatClient, type ChatModel } from 'rx-advisors';
import { OpenTelemetryAdvisor, TelemetryParams } from 'rx-advisors/otel';

export function instrumented(model: ChatModel): ChatClient {
  return ChatClient.builder(model)
    .defaultAdvisors(new OpenTelemetryAdvisor({ recordContent: false }))
    .build();
}
export const off = { [TelemetryParams.ENABLED]: false };
