import { lastValueFrom, Observable, tap, throwError, toArray } from 'rxjs';
import type { ChatChunk } from '../../../lib/core/chat-chunk';
import { DurableRunError } from '../../../lib/errors/durable-run-error';
import { RunJournalError } from '../../../lib/errors/run-journal-error';
import { InMemoryRunJournal } from '../../../lib/run/in-memory-run-journal';
import { deliveryUnits } from '../../../lib/run/durable/delivery';
import { DurableRunAdvisor } from '../../../lib/run/durable/durable-run-advisor';
import { InvalidOptionsError } from '../../../lib/errors/invalid-options-error';
import { CrashingJournal } from './support/crashing-journal';
import { TRIP_ANSWER, TRIP_QUESTION, tripClient, type SideEffects } from './support/trip-run';

const owner = 'user-1';

function stream(
  client: ReturnType<typeof tripClient>['client'],
  params: Record<string, unknown>,
  question: string | null = TRIP_QUESTION,
): Promise<ChatChunk[]> {
  const prompt = question === null ? client.prompt() : client.prompt(question);
  return lastValueFrom(prompt.advisorParams(params).stream().chunks().pipe(toArray()));
}

const textOf = (chunks: readonly ChatChunk[]): string =>
  chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.text : '')).join('');
const usageOf = (chunks: readonly ChatChunk[]) =>
  chunks.flatMap((chunk) => (chunk.type === 'usage' ? [chunk.usage] : []));
const finishOf = (chunks: readonly ChatChunk[]) =>
  chunks.flatMap((chunk) => (chunk.type === 'finish' ? [chunk.reason] : []));
const runChunk = (chunks: readonly ChatChunk[]) => chunks.find((chunk) => chunk.type === 'data');

describe('DurableRunAdvisor', () => {
  it('records a run step by step and answers as the run without it would', async () => {
    const journal = new InMemoryRunJournal();
    const ran: SideEffects = [];
    const { client, model } = tripClient({ journal, ran: (e) => ran.push(e) });
    const chunks = await stream(client, { runId: 'r1', runOwner: owner });
    expect(textOf(chunks)).toBe(TRIP_ANSWER);
    expect(runChunk(chunks)).toEqual({
      type: 'data',
      name: 'run',
      data: { runId: 'r1', resumed: false, from: 0 },
    });
    expect(model.calls).toBe(3);
    expect(ran).toEqual(['search(Oslo)', 'search(Bergen)', 'book(Oslo)', 'mail(Oslo)']);
    const records = await journal.read({ owner, runId: 'r1' });
    expect(records.map((r) => r.type)).toEqual([
      'run-started',
      'model-round',
      'tool-outcome',
      'tool-outcome',
      'model-round',
      'tool-call-started',
      'tool-call-started',
      'tool-outcome',
      'tool-outcome',
      'model-round',
      'run-ended',
    ]);
    const ended = records[records.length - 1];
    expect(ended).toMatchObject({
      outcome: 'completed',
      usage: { inputTokens: 60, outputTokens: 18, totalTokens: 78 },
    });
    // Delivered counts only grow, and the last one is the whole stream.
    const delivered = records.map((r) => r.delivered);
    expect([...delivered].sort((a, b) => a - b)).toEqual(delivered);
    expect(ended.delivered).toBeGreaterThan(TRIP_ANSWER.length);
  });

  it('makes a run id when none is given and announces it', async () => {
    const journal = new InMemoryRunJournal();
    const { client } = tripClient({ journal, newRunId: () => 'made-1' });
    const chunks = await stream(client, { runOwner: owner });
    expect(runChunk(chunks)).toMatchObject({ data: { runId: 'made-1' } });
    expect(await journal.read({ owner, runId: 'made-1' })).not.toHaveLength(0);
  });

  it('replays a finished run without a model call or a tool: nothing new, or everything', async () => {
    const journal = new InMemoryRunJournal();
    await stream(tripClient({ journal }).client, { runId: 'r1', runOwner: owner });
    const ran: SideEffects = [];
    const again = tripClient({ journal, ran: (e) => ran.push(e) });
    const nothing = await stream(again.client, { runId: 'r1', runOwner: owner }, null);
    expect(nothing).toEqual([
      expect.objectContaining({ type: 'data', data: expect.objectContaining({ resumed: true }) }),
    ]);
    const all = await stream(
      again.client,
      { runId: 'r1', runOwner: owner, runReplay: 'all' },
      null,
    );
    expect(textOf(all)).toBe(TRIP_ANSWER);
    expect(usageOf(all)).toEqual([{ inputTokens: 60, outputTokens: 18, totalTokens: 78 }]);
    expect(finishOf(all)).toEqual(['stop']);
    expect(again.model.calls).toBe(0);
    expect(ran).toEqual([]);
    // The same request sent again (a retried POST) resumes too.
    const retried = await stream(again.client, { runId: 'r1', runOwner: owner });
    expect(retried).toHaveLength(1);
    expect((await journal.read({ owner, runId: 'r1' })).length).toBe(11);
  });

  it.each([2, 3, 4, 5, 6, 7, 8])(
    'resumes a run that stopped at its append %i: the same answer and usage, no round lost, no side effect twice',
    async (crashAt) => {
      const journal = new InMemoryRunJournal();
      const ran: SideEffects = [];
      const first = tripClient({
        journal: new CrashingJournal(journal, crashAt),
        ran: (e) => ran.push(e),
      });
      const before = await stream(first.client, { runId: 'r1', runOwner: owner }).catch(
        (error: unknown) => error,
      );
      expect(before).toEqual(new Error('crashed'));
      const resumed = tripClient({ journal, ran: (e) => ran.push(e), approve: () => true });
      const after = await stream(
        resumed.client,
        { runId: 'r1', runOwner: owner, runReplay: 'all' },
        null,
      );
      expect(textOf(after)).toBe(TRIP_ANSWER);
      expect(usageOf(after)).toEqual([{ inputTokens: 60, outputTokens: 18, totalTokens: 78 }]);
      // Model calls: the three rounds once each, but for a round in flight at the crash.
      const recordedRounds = (await journal.read({ owner, runId: 'r1' })).filter(
        (r) => r.type === 'model-round',
      ).length;
      expect(recordedRounds).toBe(3);
      expect(first.model.calls + resumed.model.calls).toBeLessThanOrEqual(4);
      for (const effect of ['book', 'mail']) {
        // A call that may have run is run again only after an approval (given here).
        const asked = after.filter(
          (c) => c.type === 'tool-approval-request' && c.toolCall.name === effect,
        ).length;
        expect(ran.filter((e) => e === `${effect}(Oslo)`)).toHaveLength(1 + asked);
      }
    },
  );

  it.each([2, 3, 4, 5, 6, 7, 8])(
    'stopped at its append %i, gives the resumed subscriber the rest: what it had up to `from`, then the new stream',
    async (crashAt) => {
      const journal = new InMemoryRunJournal();
      const first = tripClient({ journal: new CrashingJournal(journal, crashAt) });
      const before: ChatChunk[] = [];
      await lastValueFrom(
        first.client
          .prompt(TRIP_QUESTION)
          .advisorParams({ runId: 'r1', runOwner: owner })
          .stream()
          .chunks()
          .pipe(tap((chunk) => before.push(chunk))),
      ).catch(() => undefined);
      const { client } = tripClient({ journal, approve: () => true });
      const after = await stream(client, { runId: 'r1', runOwner: owner }, null);
      const announced = runChunk(after);
      if (announced?.type !== 'data') throw new Error('no run chunk');
      const { from } = announced.data as { from: number };
      // Without tool events, only text has units before the final chunks.
      expect(textOf(before).slice(0, from) + textOf(after)).toBe(TRIP_ANSWER);
      expect(finishOf(after)).toEqual(['stop']);
    },
  );

  it.each([3, 4, 6, 8])(
    'with tool events on, stopped at its append %i, a resumed subscriber gets exactly the units it lacked',
    async (crashAt) => {
      // A stream as units: text by character, a chunk of one unit by its type, no-unit chunks dropped.
      const unitsOf = (chunks: readonly ChatChunk[]): string[] =>
        chunks.flatMap((chunk) => {
          const units = deliveryUnits(chunk);
          if (chunk.type === 'text-delta') return [...chunk.text];
          return units === 0 ? [] : [chunk.type];
        });
      const whole = await stream(
        tripClient({ journal: new InMemoryRunJournal(), emitToolEvents: true }).client,
        { runId: 'r1', runOwner: owner },
      );
      const journal = new InMemoryRunJournal();
      const before: ChatChunk[] = [];
      const first = tripClient({
        journal: new CrashingJournal(journal, crashAt),
        emitToolEvents: true,
      });
      await lastValueFrom(
        first.client
          .prompt(TRIP_QUESTION)
          .advisorParams({ runId: 'r1', runOwner: owner })
          .stream()
          .chunks()
          .pipe(tap((chunk) => before.push(chunk))),
      ).catch(() => undefined);
      const { client } = tripClient({ journal, approve: () => true, emitToolEvents: true });
      const after = await stream(client, { runId: 'r1', runOwner: owner }, null);
      const announced = runChunk(after);
      if (announced?.type !== 'data') throw new Error('no run chunk');
      const { from } = announced.data as { from: number };
      const expected = unitsOf(whole.filter((chunk) => chunk.type !== 'data'));
      const got = [
        ...unitsOf(before.filter((chunk) => chunk.type !== 'data')).slice(0, from),
        ...unitsOf(after.filter((chunk) => chunk.type !== 'data')),
      ];
      expect(got).toEqual(expected);
    },
  );

  it('sends a resumed subscriber only what it had not received, cutting a text in the middle', async () => {
    const journal = new InMemoryRunJournal();
    const all = await stream(tripClient({ journal }).client, { runId: 'r1', runOwner: owner });
    const whole = textOf(all);
    const { client } = tripClient({ journal });
    // The client says it saw 20 units: the text from its 21st character on.
    const rest = await stream(client, { runId: 'r1', runOwner: owner, runDelivered: 20 }, null);
    expect(runChunk(rest)).toMatchObject({ data: { from: 20 } });
    expect(textOf(rest)).toBe(whole.slice(20));
    expect(finishOf(rest)).toEqual(['stop']);
  });
});

describe('DurableRunAdvisor: failures and unsubscription', () => {
  /** The trip client with a model that fails round 2 the first time it is asked. */
  function failingOnce(journal: InMemoryRunJournal, ran: SideEffects) {
    const trip = tripClient({ journal, ran: (e) => ran.push(e) });
    const stream$ = trip.model.stream.bind(trip.model);
    let failed = false;
    trip.model.stream = (request) => {
      const round = request.messages.filter((m) => m.role === 'assistant').length + 1;
      if (round === 2 && !failed) {
        failed = true;
        return throwError(() => new Error('503 from the provider'));
      }
      return stream$(request);
    };
    return trip;
  }

  it('fails the run on a model failure, and a resume retries from the failed round', async () => {
    const journal = new InMemoryRunJournal();
    const ran: SideEffects = [];
    const { client, model } = failingOnce(journal, ran);
    const error = await stream(client, { runId: 'r1', runOwner: owner }).catch((e: unknown) => e);
    expect(error).toEqual(new Error('503 from the provider'));
    const records = await journal.read({ owner, runId: 'r1' });
    expect(records.map((r) => r.type)).toEqual([
      'run-started',
      'model-round',
      'tool-outcome',
      'tool-outcome',
    ]);
    const all = await stream(client, { runId: 'r1', runOwner: owner, runReplay: 'all' }, null);
    expect(textOf(all)).toBe(TRIP_ANSWER);
    // Round 1 once, round 2 failed then made, round 3 once; the searches ran once.
    expect(model.calls).toBe(3);
    expect(ran).toEqual(['search(Oslo)', 'search(Bergen)', 'book(Oslo)', 'mail(Oslo)']);
  });

  it('stops on unsubscription (the model call is aborted) and a resume goes on', async () => {
    const journal = new InMemoryRunJournal();
    const ran: SideEffects = [];
    const { client, model } = tripClient({ journal, ran: (e) => ran.push(e) });
    let aborted = false;
    let asked = false;
    const stream$ = model.stream.bind(model);
    model.stream = (request) => {
      const round = request.messages.filter((m) => m.role === 'assistant').length + 1;
      // Round 2 never answers: the subscriber leaves while it is in flight.
      return round === 2
        ? new Observable<ChatChunk>(() => {
            asked = true;
            return () => {
              aborted = true;
            };
          })
        : stream$(request);
    };
    const seen: ChatChunk[] = [];
    const subscription = client
      .prompt(TRIP_QUESTION)
      .advisorParams({ runId: 'r1', runOwner: owner })
      .stream()
      .chunks()
      .subscribe((chunk) => seen.push(chunk));
    const length = async () => (await journal.read({ owner, runId: 'r1' })).length;
    for (let i = 0; i < 50 && !asked; i++) await new Promise((done) => setImmediate(done));
    // Round 1 is recorded; the searches' outcomes wait for round 2's append.
    expect(await length()).toBe(2);
    subscription.unsubscribe();
    expect(aborted).toBe(true);
    // Unsubscribed, the run writes the outcomes it held (lost only with the process).
    for (let i = 0; i < 50 && (await length()) < 4; i++) {
      await new Promise((done) => setImmediate(done));
    }
    const resumed = tripClient({ journal, ran: (e) => ran.push(e) });
    const rest = await stream(resumed.client, { runId: 'r1', runOwner: owner }, null);
    expect(textOf(rest)).toBe(TRIP_ANSWER);
    expect(resumed.model.calls).toBe(2);
    expect(ran).toEqual(['search(Oslo)', 'search(Bergen)', 'book(Oslo)', 'mail(Oslo)']);
  });
});

describe('DurableRunAdvisor: calls that may have run', () => {
  /** A run stopped right after `book` and `mail` started (their outcomes not recorded). */
  async function uncertainRun(journal: InMemoryRunJournal, ran: SideEffects) {
    // Appends: run-started, round 1, the 2 outcomes with round 2, 2 starts: the 6th fails.
    const first = tripClient({ journal: new CrashingJournal(journal, 6), ran: (e) => ran.push(e) });
    await stream(first.client, { runId: 'r1', runOwner: owner }).catch(() => undefined);
  }

  it('asks for approval through the approval flow, and runs only an approved call again', async () => {
    const journal = new InMemoryRunJournal();
    const ran: SideEffects = [];
    await uncertainRun(journal, ran);
    expect(ran).toEqual(['search(Oslo)', 'search(Bergen)', 'book(Oslo)', 'mail(Oslo)']);
    const asked: string[] = [];
    const { client, model } = tripClient({
      journal,
      ran: (e) => ran.push(e),
      approve: ({ toolCall }) => {
        asked.push(toolCall.name);
        return toolCall.name === 'mail' ? true : { approved: false, reason: 'it ran' };
      },
    });
    const chunks = await stream(client, { runId: 'r1', runOwner: owner }, null);
    expect(asked).toEqual(['book', 'mail']);
    expect(ran.slice(4)).toEqual(['mail(Oslo)']);
    expect(model.calls).toBe(1);
    expect(textOf(chunks)).toContain('denied by the user: it ran; mailed Oslo');
    // Replayed again, the decisions come from the journal: nobody is asked.
    const replay = tripClient({
      journal,
      approve: () => {
        throw new Error('asked');
      },
    });
    const again = await stream(
      replay.client,
      { runId: 'r1', runOwner: owner, runReplay: 'all' },
      null,
    );
    expect(textOf(again)).toBe(`Booking now.${textOf(chunks)}`);
    expect(replay.model.calls).toBe(0);
  });

  it('pauses without an approve function, and a resume with the decisions goes on', async () => {
    const journal = new InMemoryRunJournal();
    const ran: SideEffects = [];
    await uncertainRun(journal, ran);
    const paused = await stream(
      tripClient({ journal }).client,
      { runId: 'r1', runOwner: owner },
      null,
    );
    const requests = paused.filter((c) => c.type === 'tool-approval-request');
    expect(requests).toHaveLength(2);
    expect(finishOf(paused)).toEqual(['awaiting-approval']);
    const decisions = requests.map((request) => {
      if (request.type !== 'tool-approval-request') throw new Error('not a request');
      const { toolCall } = request;
      return {
        role: 'tool' as const,
        toolCallId: toolCall.id,
        name: toolCall.name,
        content: '',
        approval: { approvalId: request.approvalId, approved: toolCall.name === 'book' },
      };
    });
    const { client } = tripClient({ journal, ran: (e) => ran.push(e) });
    const done = await lastValueFrom(
      client
        .prompt()
        .messages(...decisions)
        .advisorParams({ runId: 'r1', runOwner: owner })
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    expect(ran.slice(4)).toEqual(['book(Oslo)']);
    expect(textOf(done)).toContain('booked Oslo; denied by the user');
    expect(finishOf(done)).toEqual(['stop']);
  });

  it("fails with a DurableRunError under uncertainToolCalls: 'fail', running nothing", async () => {
    const journal = new InMemoryRunJournal();
    const ran: SideEffects = [];
    await uncertainRun(journal, ran);
    const { client, model } = tripClient({
      journal,
      uncertainToolCalls: 'fail',
      ran: (e) => ran.push(e),
    });
    const error = await stream(client, { runId: 'r1', runOwner: owner }, null).catch(
      (e: unknown) => e,
    );
    expect(DurableRunError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      reason: 'uncertain-tool-call',
      toolName: 'book',
      toolCallId: 'r2-book',
    });
    expect(ran).toHaveLength(4);
    expect(model.calls).toBe(0);
  });

  it('runs an idempotent call whose outcome was lost again', async () => {
    const journal = new InMemoryRunJournal();
    const ran: SideEffects = [];
    // The 3rd append (round 2, with the searches' outcomes) fails: both searches ran.
    const first = tripClient({ journal: new CrashingJournal(journal, 3), ran: (e) => ran.push(e) });
    await stream(first.client, { runId: 'r1', runOwner: owner }).catch(() => undefined);
    const { client } = tripClient({ journal, ran: (e) => ran.push(e) });
    const chunks = await stream(client, { runId: 'r1', runOwner: owner }, null);
    expect(ran.filter((e) => e === 'search(Oslo)')).toHaveLength(2);
    expect(ran.filter((e) => e === 'book(Oslo)')).toHaveLength(1);
    expect(textOf(chunks)).toContain('booked Oslo');
  });
});

describe('DurableRunAdvisor: owners, ids and bad input', () => {
  it("does not find another owner's run", async () => {
    const journal = new InMemoryRunJournal();
    await stream(tripClient({ journal }).client, { runId: 'r1', runOwner: owner });
    const error = await stream(
      tripClient({ journal }).client,
      { runId: 'r1', runOwner: 'user-2' },
      null,
    ).catch((e: unknown) => e);
    expect(RunJournalError.isInstance(error) && error.reason).toBe('not-found');
  });

  it('refuses a new message under the id of an existing run', async () => {
    const journal = new InMemoryRunJournal();
    await stream(tripClient({ journal }).client, { runId: 'r1', runOwner: owner });
    const error = await stream(
      tripClient({ journal }).client,
      { runId: 'r1', runOwner: owner },
      'And a hotel?',
    ).catch((e: unknown) => e);
    expect(DurableRunError.isInstance(error) && error.reason).toBe('run-exists');
  });

  it('needs an owner', async () => {
    const { client } = tripClient({ journal: new InMemoryRunJournal() });
    const error = await stream(client, { runId: 'r1' }).catch((e: unknown) => e);
    expect(DurableRunError.isInstance(error) && error.reason).toBe('no-owner');
    const single = tripClient({ journal: new InMemoryRunJournal(), owner: 'cli' });
    expect(textOf(await stream(single.client, {}))).toBe(TRIP_ANSWER);
  });

  it('fails clearly when another instance writes the same run', async () => {
    const journal = new InMemoryRunJournal();
    const key = { owner, runId: 'r1' };
    const sneaky = {
      append: async (...args: Parameters<InMemoryRunJournal['append']>) => {
        const length = await journal.append(...args);
        // Another instance appends right after each of ours.
        await journal.append(key, [{ type: 'run-ended', delivered: 0, outcome: 'failed' }], length);
        return length;
      },
      read: (k: typeof key) => journal.read(k),
      delete: (k: typeof key) => journal.delete(k),
    };
    const ran: SideEffects = [];
    const { client } = tripClient({ journal: sneaky, ran: (e) => ran.push(e) });
    const error = await stream(client, { runId: 'r1', runOwner: owner }).catch((e: unknown) => e);
    expect(RunJournalError.isInstance(error) && error.reason).toBe('conflict');
    expect(ran).toEqual([]);
  });

  it('validates its options', () => {
    expect(() => new DurableRunAdvisor({ journal: {} as InMemoryRunJournal })).toThrow(
      InvalidOptionsError,
    );
    expect(
      () => new DurableRunAdvisor({ journal: new InMemoryRunJournal(), replay: 'some' as 'all' }),
    ).toThrow(InvalidOptionsError);
  });
});
