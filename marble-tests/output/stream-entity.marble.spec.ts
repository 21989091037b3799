import { map } from 'rxjs';
import {
  ChatClient,
  StructuredOutputValidationAdvisor,
  streamEntity,
  type ChatChunk,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const schema = {
  type: 'object',
  properties: { title: { type: 'string' }, steps: { type: 'array', items: { type: 'string' } } },
  required: ['title', 'steps'],
  additionalProperties: false,
} as const;

const chunks: Record<string, ChatChunk> = {
  a: { type: 'text-delta', text: '{"title":' },
  b: { type: 'text-delta', text: ' 1}' },
  c: { type: 'text-delta', text: '{"title": "T",' },
  d: { type: 'text-delta', text: ' "steps": ["s"]}' },
  f: { type: 'finish', reason: 'stop' },
};

describe('stream().entity() with validation (marble)', () => {
  it('streams partial objects, drops them on the retry chunk and ends with the validated entity', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a-b-f|', chunks);
      const attempt2 = cold('-c-d-f|', chunks);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const entity$ = ChatClient.create(model)
        .prompt('Tea?')
        .stream()
        .entity(schema, { validate: true });

      expectObservable(entity$).toBe('-p-q---x-y--(z|)', {
        p: {},
        q: { title: 1 },
        x: { title: 'T' },
        y: { title: 'T', steps: ['s'] },
        z: { title: 'T', steps: ['s'] },
      });
      expectSubscriptions(attempt1.subscriptions).toBe('^-----!');
      expectSubscriptions(attempt2.subscriptions).toBe('------^-----!');
    });
  });

  it('shows the attempt boundary as a retry chunk in stream().chunks()', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a-b-f|', chunks);
      const attempt2 = cold('-c-d-f|', chunks);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const chunks$ = ChatClient.create(model)
        .prompt('Tea?')
        .advisors(new StructuredOutputValidationAdvisor({ outputSchema: schema }))
        .stream()
        .chunks();

      expectObservable(chunks$).toBe('-a-b--rc-d--(muf|)', {
        ...chunks,
        r: {
          type: 'retry',
          attempt: 2,
          reason: 'invalid structured output (2 error(s); first: /steps is required but missing)',
          advisor: 'structured-output-validation',
        },
        m: { type: 'metadata', rounds: 2 },
        u: {
          type: 'usage',
          usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
        },
        f: { type: 'finish', reason: 'stop' },
      });
      expectSubscriptions(attempt1.subscriptions).toBe('^-----!');
      expectSubscriptions(attempt2.subscriptions).toBe('------^-----!');
    });
  });

  it('unsubscribing mid-attempt tears down the model stream and starts no other attempt', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a-b-f|', chunks);
      const attempt2 = cold('-c-d-f|', chunks);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const entity$ = ChatClient.create(model)
        .prompt('Tea?')
        .stream()
        .entity(schema, { validate: true });

      expectObservable(entity$, '^--!').toBe('-p--', { p: {} });
      expectSubscriptions(attempt1.subscriptions).toBe('^--!');
      expectSubscriptions(attempt2.subscriptions).toBe([]);
    });
  });

  it('passes a model error through after the partials, without retrying', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a-#', chunks, new Error('connection reset'));
      const attempt2 = cold('-c-d-f|', chunks);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const entity$ = ChatClient.create(model)
        .prompt('Tea?')
        .stream()
        .entity(schema, { validate: true });

      expectObservable(entity$).toBe('-p-#', { p: {} }, new Error('connection reset'));
      expectSubscriptions(attempt1.subscriptions).toBe('^--!');
      expectSubscriptions(attempt2.subscriptions).toBe([]);
    });
  });

  it('keeps previews of an escaped __proto__ key clean on the frames the JSON grows', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const hostile: Record<string, ChatChunk> = {
        h: { type: 'text-delta', text: '{"\\u005f_pro' },
        i: { type: 'text-delta', text: 'to__": {"polluted": true}, "title": "T",' },
        j: { type: 'text-delta', text: ' "steps": []}' },
        f: { type: 'finish', reason: 'stop' },
      };
      const source = cold('-h-i-j-f|', hostile);
      const ownKeys$ = source.pipe(
        streamEntity(schema),
        map((value) => Object.keys(value).join(',')),
      );

      expectObservable(ownKeys$).toBe('-p-q-r--(r|)', {
        p: '',
        q: 'title',
        r: 'title,steps',
      });
      expectSubscriptions(source.subscriptions).toBe('^-------!');
    });
  });

  it('shows no preview past maxDepth, then fails the final value as nested too deeply', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const deep: Record<string, ChatChunk> = {
        a: { type: 'text-delta', text: '{"title": "T", "steps": [' },
        b: { type: 'text-delta', text: '[["s"]]]}' },
        f: { type: 'finish', reason: 'stop' },
      };
      const source = cold('-a-b-f|', deep);
      const entity$ = source.pipe(streamEntity({ type: 'object' }, { maxDepth: 2 }));

      expectObservable(entity$).toBe(
        '-p----#',
        { p: { title: 'T', steps: [] } },
        expect.objectContaining({
          errors: [
            {
              path: '',
              message:
                'is nested too deeply: more than 2 levels of objects and arrays (maxDepth 2)',
            },
          ],
        }),
      );
      expectSubscriptions(source.subscriptions).toBe('^-----!');
    });
  });
});
