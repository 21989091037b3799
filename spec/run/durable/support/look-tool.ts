import { tool } from '../../../../lib/tools/tool-fn';

/** An idempotent tool without arguments that answers 'seen': what a durable run's rounds call. */
export const look = tool({
  name: 'look',
  description: 'Looks',
  parameters: { type: 'object', properties: {} },
  idempotent: true,
  execute: () => 'seen',
});
