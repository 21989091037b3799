// A stand-in for a provider's SDK, for the example adapter of docs/writing-a-provider.md:
// shaped like the real SDKs (a client whose streaming call takes an AbortSignal and
// resolves to an async iterable of events), scripted per call.

/** The events the Acme API streams. */
export type AcmeEvent =
  | { type: 'start'; id: string; model: string }
  | { type: 'text'; text: string }
  | { type: 'tool'; index: number; id?: string; name?: string; args: string }
  | {
      type: 'done';
      reason: 'stop' | 'max_tokens' | 'tool_use';
      inputTokens: number;
      outputTokens: number;
    }
  | { type: 'error'; code: string; message: string };

/** The body of one Acme streaming call. */
export interface AcmeRequestBody {
  model: string;
  messages: { role: string; content: string }[];
  tools: { name: string; description: string; parameters: Record<string, unknown> }[];
}

/** What the adapter needs of an Acme client. */
export interface AcmeClient {
  readonly apiKey: string;
  readonly chat: {
    stream(
      body: AcmeRequestBody,
      options: { signal: AbortSignal },
    ): Promise<AsyncIterable<AcmeEvent>>;
  };
}

/** One step of a scripted call: an event, a pause in milliseconds, or silence until aborted. */
export type AcmeStep = AcmeEvent | { pause: number } | 'stall';

/** A scripted Acme client: each call plays the next script and records its body and signal. */
export class FakeAcmeClient implements AcmeClient {
  readonly bodies: AcmeRequestBody[] = [];
  readonly signals: AbortSignal[] = [];
  readonly chat: AcmeClient['chat'];

  constructor(
    readonly apiKey: string,
    private readonly scripts: AcmeStep[][],
  ) {
    this.chat = {
      stream: (body, { signal }) => {
        this.bodies.push(body);
        this.signals.push(signal);
        const script = this.scripts.shift();
        if (script === undefined) return Promise.reject(new Error('no script left'));
        return Promise.resolve(play(script, signal));
      },
    };
  }
}

async function* play(script: AcmeStep[], signal: AbortSignal): AsyncIterable<AcmeEvent> {
  for (const step of script) {
    if (step === 'stall') await untilAborted(signal);
    else if ('pause' in step) await pause(step.pause, signal);
    else yield step;
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    });
  });
}

function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) =>
    signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
  );
}
