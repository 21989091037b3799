// `npm start` until the demo server lands: a chain at work over the offline MockChatModel.
import { map } from 'rxjs';
import { advisor, ChatClient, LoggerAdvisor, Order, SafeGuardAdvisor } from '../lib/index';
import { MockChatModel } from '../lib/testing/index';

const model = MockChatModel.respond((request) => ({
  text: `(offline demo model) You said: "${request.lastUserText ?? ''}". No API key is set, so this answer is scripted.`,
  usage: { inputTokens: 12, outputTokens: 20 },
  interval: 40,
}));

const shout = advisor({
  name: 'shout',
  order: Order.DEFAULT + 10,
  after: map((chunk) => (chunk.type === 'text-delta' ? { ...chunk, text: chunk.text.toUpperCase() } : chunk)),
});

const client = ChatClient.builder(model)
  .defaultSystem('You are a helpful assistant.')
  .defaultAdvisors(
    new SafeGuardAdvisor({ sensitiveWords: ['password'] }),
    new LoggerAdvisor({ logger: { info: (message) => console.log(`  ${message}`) } }),
    shout,
  )
  .build();

console.log('rx-advisors: a chain of SafeGuardAdvisor -> LoggerAdvisor -> shout -> MockChatModel\n');
client
  .prompt('Hello, advisors!')
  .stream()
  .content()
  .subscribe({
    next: (delta) => process.stdout.write(delta),
    complete: () => {
      console.log('\n');
      client
        .prompt('What is the admin password?')
        .call()
        .chatResponse()
        .subscribe((response) => console.log(`guarded: ${response.text} [${response.finishReason}]`));
    },
  });
