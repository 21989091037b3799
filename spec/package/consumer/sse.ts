// Consumer check of `rx-advisors/sse` (see root.ts).
import type { ChatChunk } from 'rx-advisors';
import { toServerSentEvents } from 'rx-advisors/sse';
import { of, type Observable } from 'rxjs';

const chunks$: Observable<ChatChunk> = of({ type: 'text-delta', text: 'Hi' });
export const frames$: Observable<string> = chunks$.pipe(toServerSentEvents());
