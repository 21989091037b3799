// Consumer check of `rx-advisors/testing` (see root.ts).
import { ChatClient } from 'rx-advisors';
import { MockChatModel } from 'rx-advisors/testing';
import type { Observable } from 'rxjs';

const model = MockChatModel.script([{ text: 'Hello' }]);
export const content$: Observable<string> = ChatClient.create(model).prompt('Hi').call().content();
export const calls: number = model.calls;
