// The same shared provider cases (support/provider-cases.ts) against the native adapters,
// so the bridge and the adapters pass one list (issue 19's "same provider test suite").
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { NATIVE_TARGETS } from './support/native-provider-targets.js';
import { PROVIDER_CASES } from './support/provider-cases.js';

jest.setTimeout(20_000);

describe.each(NATIVE_TARGETS.map((target) => [target.name, target] as const))(
  '%s',
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
