// Consumer check of `rx-advisors/provider-kit` (see root.ts): a translator for a made-up
// provider's stream of text events.
import type { ChatChunk } from 'rx-advisors';
import { translateStream, type StreamTranslator } from 'rx-advisors/provider-kit';
import { of, type Observable } from 'rxjs';

interface TextEvent {
  text: string;
}

const createTranslator = (): StreamTranslator<TextEvent> => ({
  event: (event, sink) => sink.next({ type: 'text-delta', text: event.text }),
  end: () => undefined,
});

export const chunks$: Observable<ChatChunk> = translateStream({
  events$: of({ text: 'Hi' }),
  createTranslator,
  errors: { provider: 'made-up', secrets: [] },
});
