import type { ChannelEntity } from '../channel.entity';

/** The create call a submit makes (path and body), before and after a family asks its provider to call back. */
export interface CreateCall {
  path: string;
  body: unknown;
}

/** A callback as it reached the gateway: what a family's signature check reads. */
export interface ProviderCallback {
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The exact bytes the provider sent (signatures are over them). */
  rawBody: Buffer;
  /** The parsed body. */
  body: unknown;
  /** The path and query it was sent to, as the provider saw it in the callback URL. */
  pathAndQuery: string;
  /** The task's provider id, once the gateway stored it (null during its submit). */
  upstreamTaskId: string | null;
}

/**
 * How a family's provider calls back (providers that push). The family declares how its provider is
 * asked to call back and how its signature is checked; the token in the URL, the answer, the wake-up
 * and the read that follows are the seam's (ProviderCallbackIntake), the same for every family.
 */
export interface ProviderPush {
  /** The create call asking the provider to call back at `callbackUrl` (a query parameter, a body field). */
  ask(create: CreateCall, callbackUrl: string): CreateCall;
  /**
   * Whether the provider signed this callback (absent: its provider does not sign; the token alone
   * binds it). Throws only on trouble reaching the provider's keys, which is not a bad signature.
   */
  verify?(callback: ProviderCallback, channel: ChannelEntity): Promise<boolean>;
  /** The body a handshake wants echoed (MiniMax's `{"challenge"}`); null for a callback that is not one. */
  handshake?(body: unknown): unknown;
}

/** `callback_url` in the create body: Kling, Vidu, MiniMax. */
export const CALLBACK_URL_IN_BODY: Pick<ProviderPush, 'ask'> = {
  ask: (create, callbackUrl) => ({ ...create, body: { ...(create.body as Record<string, unknown>), callback_url: callbackUrl } }),
};
