import { Controller, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { verifySignedRequest } from '../../../verification/control-plane/gamma-request-signer';
import { CONTROL_API_VERSION } from '../../../verification/control-plane/gamma-control.types';
import { SIMULATOR_ACCESS_KEY, SIMULATOR_SECRET_KEY } from '../../simulator-shared/simulator-credentials';
import { GammaSimulatorStore } from './gamma-simulator.store';

type Answer = { status: number; error?: { Code: string; Message: string }; result?: Record<string, unknown> };
const error = (status: number, Code: string, Message: string): Answer => ({ status, error: { Code, Message } });
const ok = (result: Record<string, unknown>): Answer => ({ status: 200, result });

/**
 * The embedded family C control plane under /simulator/gamma-control: signed requests
 * (checked with SIMULATOR_ACCESS_KEY / SIMULATOR_SECRET_KEY; the body arrives raw, see
 * bootstrap), the `ResponseMetadata`/`Result` envelope, and the verification and asset actions.
 * The H5 page it hands out is served by GammaH5Controller.
 */
@ApiExcludeController()
@Controller('simulator/gamma-control')
export class GammaControlPlaneController {
  constructor(
    private readonly store: GammaSimulatorStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(200)
  async handle(@Req() req: Request, @Res() res: Response, @Query('Action') action = '', @Query('Version') version = ''): Promise<void> {
    const metadata = { RequestId: randomUUID(), Action: action, Version: version };
    const answer = await this.answer(req, action, version);
    res
      .status(answer.status)
      .json(
        answer.error ? { ResponseMetadata: { ...metadata, Error: answer.error } } : { ResponseMetadata: metadata, Result: answer.result },
      );
  }

  private async answer(req: Request, action: string, version: string): Promise<Answer> {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.from(typeof req.body === 'string' ? req.body : '');
    const url = new URL(req.originalUrl, 'http://simulator');
    const check = verifySignedRequest(
      { method: req.method, path: url.pathname, query: url.searchParams, headers: req.headers, body: raw },
      (accessKey) => (accessKey === SIMULATOR_ACCESS_KEY ? SIMULATOR_SECRET_KEY : undefined),
      this.store.now(),
    );
    if (!check.ok) return error(401, check.code, check.message);
    if (version !== CONTROL_API_VERSION) return error(400, 'InvalidVersion', `Version must be ${CONTROL_API_VERSION}`);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8') || '{}');
    } catch {
      return error(400, 'InvalidParameter', 'the body is not JSON');
    }
    switch (action) {
      case 'CreateVisualValidateSession':
        return this.createSession(body);
      case 'GetVisualValidateResult': {
        const session = await this.store.session(String(body.BytedToken ?? ''));
        if (!session) return error(400, 'InvalidParameter.BytedToken', 'the BytedToken does not exist or has expired');
        return ok(session.groupId ? { GroupId: session.groupId } : {});
      }
      case 'CreateAsset': {
        const groupId = String(body.GroupId ?? '');
        if (!(await this.store.hasGroup(groupId))) return error(400, 'InvalidParameter.GroupId', `the group ${groupId} does not exist`);
        if (typeof body.URL !== 'string' || !/^https?:\/\//.test(body.URL))
          return error(400, 'InvalidParameter.URL', 'URL must be an http(s) URL');
        if (body.AssetType !== 'Image') return error(400, 'InvalidParameter.AssetType', 'AssetType must be Image');
        return ok({ Id: (await this.store.createAsset({ groupId, url: body.URL, name: String(body.Name ?? '') })).id });
      }
      case 'GetAsset': {
        const asset = await this.store.asset(String(body.Id ?? ''));
        return asset ? ok(this.store.assetView(asset)) : error(404, 'NotFound.Asset', 'the asset does not exist');
      }
      case 'ListAssets': {
        const filter = (body.Filter ?? {}) as { GroupIds?: string[]; Statuses?: string[] };
        const size = Math.min(100, Math.max(1, Number(body.PageSize) || 10));
        const page = Math.max(1, Number(body.PageNumber) || 1);
        const items = (await this.store.assetsOf(Array.isArray(filter.GroupIds) ? filter.GroupIds : undefined))
          .map((asset) => this.store.assetView(asset))
          .filter((view) => !Array.isArray(filter.Statuses) || filter.Statuses.includes(String(view.Status)));
        return ok({ Items: items.slice((page - 1) * size, page * size), TotalCount: items.length });
      }
      case 'DeleteAsset':
        return (await this.store.deleteAsset(String(body.Id ?? ''))) ? ok({}) : error(404, 'NotFound.Asset', 'the asset does not exist');
      default:
        return error(400, 'InvalidAction', `unknown Action ${action}`);
    }
  }

  private async createSession(body: Record<string, unknown>): Promise<Answer> {
    const callbackUrl = body.CallbackURL;
    if (typeof callbackUrl !== 'string' || !/^https?:\/\//.test(callbackUrl))
      return error(400, 'InvalidParameter.CallbackURL', 'CallbackURL must be an http(s) URL');
    const session = await this.store.createSession(callbackUrl);
    const h5Link = `${this.config.publicBaseUrl}/simulator/gamma-control/h5?token=${encodeURIComponent(session.token)}`;
    return ok({ BytedToken: session.token, H5Link: h5Link, CallbackURL: callbackUrl });
  }
}
