// Consumer check of `rx-advisors/guardrails` (see root.ts).
import { ChatClient, type ChatModel } from 'rx-advisors';
import {
  GuardrailsAdvisor,
  GuardrailTrippedError,
  piiRedaction,
  wordGuardrail,
} from 'rx-advisors/guardrails';

export function guarded(model: ChatModel): ChatClient {
  return ChatClient.builder(model)
    .defaultAdvisors(
      new GuardrailsAdvisor({
        output: [wordGuardrail({ words: ['secret'] })],
        redact: piiRedaction(),
        onTrip: 'error',
      }),
    )
    .build();
}

export const tripped = (error: unknown): string | undefined =>
  GuardrailTrippedError.isInstance(error) ? error.guardrail : undefined;
