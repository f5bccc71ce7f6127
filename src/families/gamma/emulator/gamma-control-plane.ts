import { randomUUID } from 'node:crypto';
import type { EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { keepInLog } from '../../simulator-shared/emulator-log';
import type { GammaProviderState } from './gamma-provider-state';
import { signatureProblem, type SigningAccount } from './gamma-signature-check';
import type { GammaTestScripts } from './gamma-test-scripts';

const VERSION = '2024-01-01';
const isHttpUrl = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\//.test(value);

/** One control plane call as the emulator received it: its action, body and what the signature check said. */
export interface GammaControlCall {
  action: string;
  version: string | null;
  body: Record<string, unknown>;
  /** Why the signature was refused, or null when it checked out. */
  signatureError: string | null;
  request: EmulatorRequest;
  /** When it arrived (ms epoch, real time). */
  at: number;
}

type Answer = { status: number; error?: { Code: string; Message: string }; result?: Record<string, unknown> };
const refuse = (status: number, Code: string, Message: string): Answer => ({ status, error: { Code, Message } });
const ok = (result: Record<string, unknown>): Answer => ({ status: 200, result });

/**
 * The control plane (docs/upstream-protocols.md, Family C): `POST /?Action=..&Version=2024-01-01`,
 * every call signed (HMAC-SHA256 over the exact bytes, checked by gamma-signature-check.ts: 401
 * `SignatureDoesNotMatch` otherwise), the `ResponseMetadata`/`Result` envelope, the verification
 * session and asset actions. The H5 page a session hands out is GammaH5Pages'.
 */
export class GammaControlPlane {
  /** Every call, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly calls: GammaControlCall[] = [];
  /** The BytedTokens of the sessions it created, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly sessionTokens: string[] = [];

  constructor(
    private readonly account: SigningAccount,
    private readonly state: GammaProviderState,
    private readonly scripts: GammaTestScripts,
    private readonly now: () => number,
  ) {}

  /** Answers one call; `base` is where the control plane is mounted as a browser reaches it, for the H5 link. */
  async handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    const action = req.query.get('Action') ?? '';
    const metadata = { RequestId: randomUUID(), Action: action, Version: req.query.get('Version') ?? '' };
    const answer = await this.answer(req, action, base);
    if (answer.error) return { status: answer.status, json: { ResponseMetadata: { ...metadata, Error: answer.error } } };
    const json = this.scripts.unwrapped.has(action)
      ? { ResponseMetadata: metadata, ...answer.result }
      : { ResponseMetadata: metadata, Result: answer.result };
    return { status: answer.status, json };
  }

  private async answer(req: EmulatorRequest, action: string, base: string): Promise<Answer> {
    const raw = req.body ?? Buffer.alloc(0);
    const body = parsed(raw);
    const wirePath = req.wirePath ?? req.path;
    const signatureError = signatureProblem({ ...req, path: wirePath, body: raw }, this.account, this.now());
    keepInLog(this.calls, { action, version: req.query.get('Version'), body: body ?? {}, signatureError, request: req, at: Date.now() });
    if (req.method !== 'POST' || req.path !== '/') return refuse(404, 'InvalidActionOrVersion', `no ${req.method} ${wirePath}`);
    if (signatureError) return refuse(401, 'SignatureDoesNotMatch', signatureError);
    if (req.query.get('Version') !== VERSION) return refuse(400, 'InvalidActionOrVersion', `Version must be ${VERSION}`);
    if (!body) return refuse(400, 'InvalidParameter', 'the body is not a JSON object');
    const scripted = this.scripts.take(action);
    if (scripted) return refuse(scripted.status, scripted.code, scripted.message);
    switch (action) {
      case 'CreateVisualValidateSession':
        return this.createSession(body, base);
      case 'GetVisualValidateResult': {
        const session = await this.state.session(String(body.BytedToken ?? ''));
        if (!session) return refuse(400, 'InvalidParameter.BytedToken', 'the BytedToken does not exist or has expired');
        return ok(session.groupId ? { GroupId: session.groupId } : {});
      }
      case 'CreateAsset':
        return this.createAsset(body);
      case 'GetAsset': {
        const asset = await this.state.asset(String(body.Id ?? ''));
        return asset ? ok(asset) : refuse(404, 'NotFound.Asset', 'the asset does not exist');
      }
      case 'ListAssets': {
        const filter = (body.Filter ?? {}) as { GroupIds?: unknown; Statuses?: unknown };
        const size = Math.min(100, Math.max(1, Number(body.PageSize) || 10));
        const page = Math.max(1, Number(body.PageNumber) || 1);
        const items = (await this.state.assetsOf(Array.isArray(filter.GroupIds) ? filter.GroupIds.map(String) : undefined)).filter(
          (asset) => !Array.isArray(filter.Statuses) || filter.Statuses.includes(asset.Status),
        );
        return ok({ Items: items.slice((page - 1) * size, page * size), TotalCount: items.length });
      }
      case 'DeleteAsset':
        return (await this.state.deleteAsset(String(body.Id ?? ''))) ? ok({}) : refuse(404, 'NotFound.Asset', 'the asset does not exist');
      default:
        return refuse(400, 'InvalidActionOrVersion', `unknown Action ${action}`);
    }
  }

  private async createSession(body: Record<string, unknown>, base: string): Promise<Answer> {
    const callbackUrl = body.CallbackURL;
    if (!isHttpUrl(callbackUrl)) return refuse(400, 'InvalidParameter.CallbackURL', 'CallbackURL must be an http(s) URL');
    const { token } = await this.state.createSession(callbackUrl);
    keepInLog(this.sessionTokens, token);
    const h5Link = this.scripts.h5LinkFor?.(token) ?? `${base}/h5?token=${encodeURIComponent(token)}`;
    return ok({ BytedToken: token, H5Link: h5Link, CallbackURL: callbackUrl });
  }

  private async createAsset(body: Record<string, unknown>): Promise<Answer> {
    const groupId = String(body.GroupId ?? '');
    if (!(await this.state.hasGroup(groupId))) return refuse(400, 'InvalidParameter.GroupId', `the group ${groupId} does not exist`);
    if (!isHttpUrl(body.URL)) return refuse(400, 'InvalidParameter.URL', 'URL must be an http(s) URL');
    if (body.AssetType !== 'Image') return refuse(400, 'InvalidParameter.AssetType', 'AssetType must be Image');
    return ok({ Id: await this.state.createAsset({ groupId, url: body.URL, name: String(body.Name ?? '') }) });
  }
}

/** The body as a JSON object, or null when it is not one (an empty body is `{}`). */
function parsed(raw: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8') || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
