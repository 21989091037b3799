import { firstValueFrom } from 'rxjs';
import { runToolChain, SYSTEM_PROMPT } from '../../examples/tool-chain';

describe('examples/tool-chain', () => {
  const now = () => new Date('2026-11-30T09:15:00Z');

  it('chains the two tools over three model calls and answers in JSON', async () => {
    const { model, response$ } = runToolChain({ now });
    const response = await firstValueFrom(response$);
    expect(JSON.parse(response.text)).toEqual({ date: '2026-11-30', users: ['ada', 'grace'] });
    expect(response.metadata.rounds).toBe(3);
    expect(model.calls).toBe(3);
    expect(response.usage).toEqual({ inputTokens: 600, outputTokens: 60, totalTokens: 660 });
    expect(model.requests[0].messages[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(model.requests[2].messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    expect(model.requests[2].messages[3]).toMatchObject({ content: '2026-11-30T09:15:00.000Z' });
    expect(model.requests[2].messages[4]).toMatchObject({
      toolCalls: [{ name: 'getUsersRegisteredOn', arguments: '{"date":"2026-11-30"}' }],
    });
  });

  it('follows the clock: another day, other users', async () => {
    const { answer$ } = runToolChain({ now: () => new Date('2026-11-29T23:59:00Z') });
    expect(await firstValueFrom(answer$)).toEqual({ date: '2026-11-29', users: ['alan'] });
  });
});
