import {
  ChatClient,
  EvaluationAdvisor,
  type ChatChunk,
  type EvaluationResult,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const values: Record<string, ChatChunk> = {
  a: { type: 'text-delta', text: 'draft' },
  b: { type: 'text-delta', text: 'final' },
  f: { type: 'finish', reason: 'stop' },
  r: {
    type: 'retry',
    attempt: 2,
    reason: 'rejected by the judge (score 2)',
    advisor: 'evaluation',
  },
  m: { type: 'metadata', rounds: 2 },
  u: {
    type: 'usage',
    usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
  },
};

const verdicts: Record<string, EvaluationResult> = {
  n: { pass: false, score: 2, feedback: 'More detail.' },
  y: { pass: true, score: 9 },
};

describe('EvaluationAdvisor (marble)', () => {
  it('waits for the judge, then re-runs the chain with its feedback', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a-f|', values);
      const attempt2 = cold('-b-f|', values);
      const judge1 = cold('--(n|)', verdicts);
      const judge2 = cold('--(y|)', verdicts);
      const judges = [judge1, judge2];
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const advisor = new EvaluationAdvisor({ judge: ({ attempt }) => judges[attempt - 1] });
      const chunks$ = ChatClient.builder(model)
        .defaultAdvisors(advisor)
        .build()
        .prompt('q')
        .stream()
        .chunks();

      expectObservable(chunks$).toBe('-a----rb----(muf|)', values);
      expectSubscriptions(attempt1.subscriptions).toBe('^---!');
      expectSubscriptions(judge1.subscriptions).toBe('----^-!');
      expectSubscriptions(attempt2.subscriptions).toBe('------^---!');
      expectSubscriptions(judge2.subscriptions).toBe('----------^-!');
    });
  });

  it('unsubscribing while the judge runs tears the judge down and starts no attempt', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a-f|', values);
      const attempt2 = cold('-b-f|', values);
      const judge1 = cold('---(n|)', verdicts);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const advisor = new EvaluationAdvisor({ judge: () => judge1 });
      const chunks$ = ChatClient.builder(model)
        .defaultAdvisors(advisor)
        .build()
        .prompt('q')
        .stream()
        .chunks();

      expectObservable(chunks$, '^-----!').toBe('-a----', values);
      expectSubscriptions(judge1.subscriptions).toBe('----^-!');
      expectSubscriptions(attempt2.subscriptions).toBe([]);
    });
  });

  it('fails the stream when the judge errors', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const attempt1 = cold('-a-f|', values);
      const judge1 = cold<EvaluationResult>('-#', undefined, new Error('judge down'));
      const model = MockChatModel.fromStreams([attempt1]);
      const advisor = new EvaluationAdvisor({ judge: () => judge1 });
      const chunks$ = ChatClient.builder(model)
        .defaultAdvisors(advisor)
        .build()
        .prompt('q')
        .stream()
        .chunks();

      expectObservable(chunks$).toBe('-a---#', values, new Error('judge down'));
    });
  });
});
