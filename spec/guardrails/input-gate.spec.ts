import { firstValueFrom, lastValueFrom } from 'rxjs';
import { ChatRequest, GuardrailTrippedError } from '../../lib/index';
import type { InputGuardrail } from '../../lib/guardrails/index';
import { inputGate } from '../../lib/guardrails/input-gate';

const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

/** An input guardrail that counts its checks and answers `answer`. */
function counting(answer: () => ReturnType<InputGuardrail['checkInput']>) {
  const seen = { checks: 0 };
  const guardrail: InputGuardrail = {
    name: 'counting',
    checkInput: () => {
      seen.checks++;
      return answer();
    },
  };
  return { guardrail, seen };
}

// Issue 32 (docs/performance.md, "telemetry, third pass"): the tool-call interceptor sits in
// the request's context; once the verdict is in, it must hold the verdict, not the shared
// run (its ReplaySubject and subscribers were kept reachable, and promoted, per call).
describe('inputGate', () => {
  it('shares one run while the verdict is pending', async () => {
    const { guardrail, seen } = counting(() => Promise.resolve(undefined));
    const { shared$, gate } = inputGate([guardrail], request);
    expect(gate.verdict$).toBe(shared$);
    const both = Promise.all([lastValueFrom(shared$), lastValueFrom(gate.verdict$)]);
    await expect(both).resolves.toEqual([undefined, undefined]);
    expect(seen.checks).toBe(1);
  });

  it('once passed, holds the verdict alone, not the shared run', async () => {
    const { guardrail, seen } = counting(() => undefined);
    const { shared$, gate } = inputGate([guardrail], request);
    await expect(lastValueFrom(shared$)).resolves.toBeUndefined();
    expect(gate.pending).toBeUndefined();
    expect(gate.verdict$).not.toBe(shared$);
    await expect(firstValueFrom(gate.verdict$)).resolves.toBeUndefined();
    expect(seen.checks).toBe(1);
  });

  it('once tripped, holds the trip', async () => {
    const { guardrail } = counting(() => ({ tripped: true, message: 'No.' }));
    const { shared$, gate } = inputGate([guardrail], request);
    const trip = await lastValueFrom(shared$);
    expect(trip).toBeInstanceOf(GuardrailTrippedError);
    expect(gate.pending).toBeUndefined();
    await expect(firstValueFrom(gate.verdict$)).resolves.toBe(trip);
  });

  it('after a failed check, runs again for the next subscriber', async () => {
    let calls = 0;
    const { guardrail, seen } = counting(() => {
      calls++;
      if (calls === 1) throw new Error('check failed');
      return undefined;
    });
    const { shared$, gate } = inputGate([guardrail], request);
    await expect(lastValueFrom(shared$)).rejects.toThrow('check failed');
    expect(gate.verdict$).toBe(shared$);
    await expect(lastValueFrom(gate.verdict$)).resolves.toBeUndefined();
    expect(seen.checks).toBe(2);
  });
});
