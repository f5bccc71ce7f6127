import { randomBytes } from 'node:crypto';
import { callbackTokenFor, taskIdOfCallbackToken } from './callback-token';

describe('callback tokens', () => {
  const key = randomBytes(32);
  const previous = randomBytes(32);
  const taskId = 'task_abcDEF0123456789abcDEF0123456789';

  it('name the task they were made for, under the current key or one before a rotation', () => {
    expect(taskIdOfCallbackToken(callbackTokenFor(taskId, key), [key])).toBe(taskId);
    expect(taskIdOfCallbackToken(callbackTokenFor(taskId, previous), [key, previous])).toBe(taskId);
  });

  it.each([
    ['another key', () => callbackTokenFor(taskId, randomBytes(32))],
    ['another task with this MAC', (token: string) => `task_other${token.slice(token.indexOf('.'))}`],
    ['a changed MAC', (token: string) => `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`],
    ['no MAC', () => taskId],
    ['a short MAC', (token: string) => token.slice(0, -4)],
    ['no task id', (token: string) => token.slice(token.indexOf('.'))],
  ])('refuse %s', (_, forge) => {
    expect(taskIdOfCallbackToken(forge(callbackTokenFor(taskId, key)), [key])).toBeNull();
  });
});
