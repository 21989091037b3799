import { type TestScheduler } from 'rxjs/testing';
import { ChatClient, ChatRequest, createAdvisorChain, type ChatChunk } from '../../lib/index';
import { GuardrailsAdvisor, modelJudgeGuardrail } from '../../lib/guardrails/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const ask = (content: string) => ChatRequest.create({ messages: [{ role: 'user', content }] });

describe('modelJudgeGuardrail (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it.each([
    [false, '----------(xyf|)'],
    [true, '----------(ab)f|'],
  ])('times out at its timeout and aborts the judge (failOpen: %s)', (failOpen, expected) => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const judge$ = cold<ChatChunk>('-------------------a|', {
        a: t('{"allowed":true,"reason":""}'),
      });
      const model$ = cold('-a-b----------f|', { a: t('x'), b: t('y'), f: FINISH });
      const judge = ChatClient.builder(MockChatModel.fromStreams([judge$])).build();
      const chain = createAdvisorChain({
        advisors: [
          new GuardrailsAdvisor({
            input: [modelJudgeGuardrail({ client: judge, timeout: 10, failOpen, message: 'No.' })],
          }),
        ],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('hi'))).toBe(expected, {
        a: t('x'),
        b: t('y'),
        f: failOpen ? FINISH : { type: 'finish', reason: 'content-filter' },
        x: {
          type: 'guardrail-tripped',
          guardrail: 'model-judge',
          stage: 'input',
          message: 'No.',
          withdraw: true,
        },
        y: t('No.'),
      });
      expectSubscriptions(judge$.subscriptions).toBe('^---------!');
    });
  });
});
