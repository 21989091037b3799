// The shared provider cases (support/provider-cases.ts) against every AI SDK target: the
// real @ai-sdk/google and @ai-sdk/mistral packages, talking HTTP to a loopback server that
// replays their recorded streams.
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { AI_SDK_TARGETS } from './support/ai-sdk-provider-targets.js';
import { PROVIDER_CASES } from './support/provider-cases.js';

describe.each(AI_SDK_TARGETS.map((target) => [target.name, target] as const))(
  'AiSdkChatModel over %s',
  (_name, target) => {
    let server: ReplayServer;
    beforeEach(async () => {
      server = await startReplayServer();
    });
    afterEach(() => server.close());

    const cases = PROVIDER_CASES.filter((c) => c.appliesTo?.(target) ?? true);
    it.each(cases.map((c) => [c.name, c] as const))('%s', (_caseName, providerCase) =>
      providerCase.run(target, server),
    );
  },
);
