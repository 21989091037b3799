import { from, lastValueFrom, of, throwError, toArray, concat, Subject } from 'rxjs';
import { z } from 'zod';
import {
  ChatClient,
  EntityParseError,
  StructuredOutputError,
  streamEntity,
  type ChatChunk,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const schema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    steps: { type: 'array', items: { type: 'string' } },
  },
  required: ['title', 'steps'],
  additionalProperties: false,
} as const;

const delta = (text: string): ChatChunk => ({ type: 'text-delta', text });

describe('streamEntity', () => {
  it('emits partial objects as the JSON grows, then the validated entity', async () => {
    const chunks = [
      'Sure:\n```json\n{"ti',
      'tle": "Tea',
      '", "steps": ["boil',
      '", "steep"]}',
      '\n```',
    ];
    const values = await lastValueFrom(
      from(chunks.map(delta)).pipe(streamEntity(schema), toArray()),
    );
    expect(values).toEqual([
      {},
      { title: 'Tea' },
      { title: 'Tea', steps: ['boil'] },
      { title: 'Tea', steps: ['boil', 'steep'] },
      { title: 'Tea', steps: ['boil', 'steep'] },
    ]);
  });

  it('starts over on a retry chunk: partials and the final value come from the new attempt', async () => {
    const source: ChatChunk[] = [
      delta('{"title": "Wrong", "st'),
      { type: 'retry', attempt: 2, reason: 'invalid', advisor: 'structured-output-validation' },
      delta('{"title": "Right", '),
      delta('"steps": []}'),
      { type: 'finish', reason: 'stop' },
    ];
    const values = await lastValueFrom(from(source).pipe(streamEntity(schema), toArray()));
    expect(values).toEqual([
      { title: 'Wrong' },
      { title: 'Right' },
      { title: 'Right', steps: [] },
      { title: 'Right', steps: [] },
    ]);
  });

  it('fails with EntityParseError when the final answer does not match', async () => {
    const error = await lastValueFrom(
      from([delta('{"title": 1}')]).pipe(streamEntity(schema)),
    ).catch((e: unknown) => e);
    expect(EntityParseError.isInstance(error)).toBe(true);
    expect((error as EntityParseError).errors).toEqual([
      { path: '/steps', message: 'is required but missing' },
      { path: '/title', message: 'must be string' },
    ]);
  });

  it('fails with EntityParseError on an empty source', async () => {
    const error = await lastValueFrom(of<ChatChunk>().pipe(streamEntity(schema))).catch(
      (e: unknown) => e,
    );
    expect((error as EntityParseError).errors).toEqual([
      { path: '', message: 'the answer was empty; expected JSON' },
    ]);
  });

  it('passes a source error through after the partials', async () => {
    const values: unknown[] = [];
    const boom = new Error('boom');
    const error = await new Promise((resolve) => {
      concat(
        of(delta('{"title": "T"')),
        throwError(() => boom),
      )
        .pipe(streamEntity(schema))
        .subscribe({ next: (v) => values.push(v), error: resolve });
    });
    expect(error).toBe(boom);
    expect(values).toEqual([{ title: 'T' }]);
  });

  it('keeps parser state per subscription', async () => {
    const source$ = from([delta('{"title": "A", "steps": ["x"]}')]).pipe(streamEntity(schema));
    const first = await lastValueFrom(source$.pipe(toArray()));
    const second = await lastValueFrom(source$.pipe(toArray()));
    expect(second).toEqual(first);
    expect(first).toHaveLength(2);
  });

  it('unsubscribing stops the source', () => {
    const source = new Subject<ChatChunk>();
    const values: unknown[] = [];
    const subscription = source.pipe(streamEntity(schema)).subscribe((v) => values.push(v));
    source.next(delta('{"title": "A"'));
    subscription.unsubscribe();
    expect(source.observed).toBe(false);
    source.next(delta(', "steps": []}'));
    expect(values).toEqual([{ title: 'A' }]);
  });

  it('drops __proto__ keys from previews and from the final value', async () => {
    const values = await lastValueFrom(
      from([delta('{"__proto__": {"x": 1}, "title": "A",'), delta(' "steps": []}')]).pipe(
        streamEntity({ type: 'object' }),
        toArray(),
      ),
    );
    expect(values).toEqual([{ title: 'A' }, { title: 'A', steps: [] }, { title: 'A', steps: [] }]);
    for (const value of values) {
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value as object)).not.toContain('__proto__');
    }
  });

  it('leaves out a member whose key, number or literal is still arriving', async () => {
    const pieces = ['[{"n": 1', '2, "ok": tr', 'ue, "s": "a\\', 'u00e9"', '}, 3', ']'];
    const values = await lastValueFrom(
      from(pieces.map(delta)).pipe(streamEntity({ type: 'array' }), toArray()),
    );
    expect(values).toEqual([
      [{}],
      [{ n: 12 }],
      [{ n: 12, ok: true, s: 'a' }],
      [{ n: 12, ok: true, s: 'aé' }],
      [{ n: 12, ok: true, s: 'aé' }, 3],
      [{ n: 12, ok: true, s: 'aé' }, 3],
    ]);
  });
});

describe('stream().entity()', () => {
  it('streams partial entities through the validation advisor and its retries', async () => {
    const Recipe = z.object({ title: z.string(), steps: z.array(z.string()).min(1) });
    const model = MockChatModel.script([
      { text: ['{"title": "Tea",', ' "steps": []}'] },
      { text: ['{"title": "Tea",', ' "steps": ["boil"]}'] },
    ]);
    const values = await lastValueFrom(
      ChatClient.create(model)
        .prompt('p')
        .stream()
        .entity(Recipe, { validate: true })
        .pipe(toArray()),
    );
    expect(values).toEqual([
      { title: 'Tea' },
      { title: 'Tea', steps: [] },
      { title: 'Tea' },
      { title: 'Tea', steps: ['boil'] },
      { title: 'Tea', steps: ['boil'] },
    ]);
    expect(model.calls).toBe(2);
  });

  it('fails with StructuredOutputError when validation runs out of attempts', async () => {
    const model = MockChatModel.script([{ text: '{}' }]);
    const error = await lastValueFrom(
      ChatClient.create(model)
        .prompt('p')
        .stream()
        .entity(schema, { validate: { maxAttempts: 1 } }),
    ).catch((e: unknown) => e);
    expect(StructuredOutputError.isInstance(error)).toBe(true);
  });
});
