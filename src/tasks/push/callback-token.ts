import { createHmac, timingSafeEqual } from 'node:crypto';

/** The server secret's key for callback tokens is derived for this purpose alone. */
export const CALLBACK_TOKEN_PURPOSE = 'provider-callbacks';
const TASK_ID = /^task_[A-Za-z0-9]{1,64}$/;
/** 192 bits of the MAC: unguessable, and short enough for any provider's URL limit. */
const MAC_CHARS = 32;

const macOf = (taskId: string, key: Buffer): string => createHmac('sha256', key).update(taskId).digest('base64url').slice(0, MAC_CHARS);

/** The token of a task's callback URL: its id and a MAC of it under the server secret, so it is bound to that one task. */
export function callbackTokenFor(taskId: string, key: Buffer): string {
  return `${taskId}.${macOf(taskId, key)}`;
}

/** The task a token names, when one of `keys` (the current one, then those before a rotation) made it; null otherwise. */
export function taskIdOfCallbackToken(token: string, keys: readonly Buffer[]): string | null {
  const dot = token.lastIndexOf('.');
  if (dot < 0) return null;
  const taskId = token.slice(0, dot);
  const mac = Buffer.from(token.slice(dot + 1));
  if (!TASK_ID.test(taskId) || mac.length !== MAC_CHARS) return null;
  return keys.some((key) => timingSafeEqual(Buffer.from(macOf(taskId, key)), mac)) ? taskId : null;
}
