import { Injectable, Logger } from '@nestjs/common';
import { unstorableIn } from '../common/http/storable-text';
import { Clock } from '../common/runtime/clock';
import { maskToken } from './token-mask';
import { VerificationSessionRepository } from './verification-session.repository';

/** The provider's redirect query, as the browser brings it. */
export type CallbackQuery = Record<string, unknown>;

export type CallbackOutcome =
  { kind: 'redirect'; location: string } | { kind: 'error'; status: 400 | 404 | 409; title: string; message: string };

/** Parameters forwarded to the client's callback_url, in this order. */
const FORWARDED = ['providerToken', 'resultCode', 'algorithmBaseRespCode', 'reqMeasureInfoValue', 'verify_type'] as const;
/** The result parameters recorded on the session. */
const REPORTED = ['resultCode', 'algorithmBaseRespCode', 'reqMeasureInfoValue', 'verify_type'] as const;

const first = (value: unknown): string | undefined => {
  const picked = Array.isArray(value) ? value[0] : value;
  return typeof picked === 'string' ? picked : undefined;
};

/**
 * GET /v1/callback: the provider redirects the user's browser here after the liveness check.
 * Records the reported (unverified) result on the session found by its token, once, and sends
 * the browser on to the session's callback_url with the result parameters added.
 */
@Injectable()
export class CallbackService {
  private readonly logger = new Logger('Verification');

  constructor(
    private readonly sessions: VerificationSessionRepository,
    private readonly clock: Clock,
  ) {}

  async handle(query: CallbackQuery): Promise<CallbackOutcome> {
    const token = first(query.bytedToken) ?? first(query.providerToken);
    if (!token || token.length > 191) {
      return {
        kind: 'error',
        status: 400,
        title: 'Incomplete verification link',
        message: 'This link does not carry a verification token.',
      };
    }
    // This route checks its own query (refuseUnstorableText leaves it alone), in its own pages.
    if (REPORTED.some((name) => unstorableIn(first(query[name]) ?? ''))) {
      return {
        kind: 'error',
        status: 400,
        title: 'Invalid verification link',
        message: 'This link carries a result that cannot be recorded.',
      };
    }
    // A token no database can store is no session's.
    const session = unstorableIn(token) ? null : await this.sessions.findByProviderToken(token);
    if (!session) {
      this.logger.warn(`callback with an unknown token ${maskToken(token)}`);
      return {
        kind: 'error',
        status: 404,
        title: 'Unknown verification session',
        message: 'This verification link does not belong to any session.',
      };
    }
    const reported = {
      resultCode: (first(query.resultCode) ?? '').slice(0, 32),
      algorithmBaseRespCode: (first(query.algorithmBaseRespCode) ?? '').slice(0, 64),
      reqMeasureInfoValue: (first(query.reqMeasureInfoValue) ?? '').slice(0, 255),
      verifyType: (first(query.verify_type) ?? '').slice(0, 32),
    };
    const now = this.clock.now();
    // The reported code proves nothing; a failure is shown as such, success waits for the provider.
    const status = reported.resultCode !== '10000' && session.status === 'pending' ? 'failed' : session.status;
    const won = await this.sessions.recordCallbackOnce(session.id, {
      resultCode: reported.resultCode || null,
      algorithmBaseRespCode: reported.algorithmBaseRespCode || null,
      reqMeasureInfoValue: reported.reqMeasureInfoValue || null,
      verifyType: reported.verifyType || null,
      callbackAt: now,
      status,
      updatedAt: now,
    });
    if (!won) {
      this.logger.warn(`callback for session ${session.sessionId} reused (token ${maskToken(token)})`);
      return {
        kind: 'error',
        status: 409,
        title: 'Verification link already used',
        message: 'This verification result was already delivered. Start a new verification if needed.',
      };
    }
    this.logger.log(`callback for session ${session.sessionId} (token ${maskToken(token)}): resultCode ${reported.resultCode || '-'}`);

    const values = { providerToken: token, ...reported, verify_type: reported.verifyType };
    return { kind: 'redirect', location: withResultParameters(session.callbackUrl, values) };
  }
}

/**
 * The client's callback_url with the result parameters appended. Its own query stays byte for
 * byte as the client wrote it (URLSearchParams would re-encode it: `%20` -> `+`, `flag` -> `flag=`);
 * only pairs named like a result parameter give way to ours.
 */
function withResultParameters(callbackUrl: string, values: Record<(typeof FORWARDED)[number], string>): string {
  const location = new URL(callbackUrl);
  const nameOf = (pair: string): string => {
    const raw = pair.split('=')[0].replace(/\+/g, ' ');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  };
  const own = location.search
    .slice(1)
    .split('&')
    .filter((pair) => pair && !(FORWARDED as readonly string[]).includes(nameOf(pair)));
  const added = FORWARDED.map((name) => `${name}=${encodeURIComponent(values[name])}`);
  location.search = [...own, ...added].join('&');
  return location.toString();
}
