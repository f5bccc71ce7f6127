import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { VEO_MODELS } from '../veo-models';
import { VeoSimulatorStore } from './veo-simulator.store';

const DURATIONS = [4, 6, 8];
const VERTEX_ONLY = ['seed', 'generateAudio', 'fps', 'storageUri', 'compressionQuality', 'resizeMode'];

/**
 * The embedded Gemini API for Veo (docs/upstream-protocols.md, Family Veo) under /simulator/veo:
 * `x-goog-api-key: simulator-key` (or `?key=`) on every call, the file download included;
 * predictLongRunning, operations by name, the sample MP4 as the file. `[simulate:busy]` in the
 * prompt is a 429 RESOURCE_EXHAUSTED; see VeoSimulatorStore for the other triggers.
 */
@ApiExcludeController()
@Controller('simulator/veo/v1beta')
export class VeoSimulatorController {
  constructor(private readonly store: VeoSimulatorStore) {}

  @Post('models/:modelAction')
  async predict(
    @Req() req: Request,
    @Res() res: Response,
    @Param('modelAction') modelAction: string,
    @Body() body: Record<string, unknown> | undefined,
  ): Promise<void> {
    if (!authorized(req, res)) return;
    const [model, action] = modelAction.split(':');
    if (action !== 'predictLongRunning' || !VEO_MODELS[model])
      return fail(res, 404, 'NOT_FOUND', `models/${model} is not found for API version v1beta.`);
    const instance = (Array.isArray(body?.instances) ? body.instances[0] : undefined) as Record<string, unknown> | undefined;
    const parameters = (body?.parameters ?? {}) as Record<string, unknown>;
    const prompt = typeof instance?.prompt === 'string' ? instance.prompt : '';
    if (!instance || (prompt === '' && !instance.image)) return fail(res, 400, 'INVALID_ARGUMENT', 'A prompt or an image is required.');
    if (parameters.durationSeconds !== undefined && !DURATIONS.includes(parameters.durationSeconds as number))
      return fail(res, 400, 'INVALID_ARGUMENT', 'Unsupported durationSeconds.');
    if (VERTEX_ONLY.some((key) => key in parameters))
      return fail(res, 400, 'INVALID_ARGUMENT', 'A parameter is not supported in the Gemini API.');
    if (prompt.includes('[simulate:busy]'))
      return fail(res, 429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota). (simulated)');
    res.status(200).json(await this.store.create(model, prompt));
  }

  @Get('models')
  list(@Req() req: Request, @Res() res: Response): void {
    if (!authorized(req, res)) return;
    res.json({
      models: Object.keys(VEO_MODELS).map((model) => ({ name: `models/${model}`, supportedGenerationMethods: ['predictLongRunning'] })),
    });
  }

  @Get('models/:model/operations/:id')
  async operation(@Req() req: Request, @Res() res: Response, @Param('model') model: string, @Param('id') id: string): Promise<void> {
    if (!authorized(req, res)) return;
    const root = `${req.protocol}://${req.get('host')}/simulator/veo`;
    const operation = await this.store.get(model, id, root);
    if (!operation) return fail(res, 404, 'NOT_FOUND', 'Operation not found.');
    res.json(operation);
  }

  @Get('files/:fileAction')
  async download(@Req() req: Request, @Res() res: Response, @Param('fileAction') fileAction: string): Promise<void> {
    if (!authorized(req, res)) return;
    const [id, action] = fileAction.split(':');
    if (action !== 'download' || !(await this.store.hasVideo(id))) return fail(res, 404, 'NOT_FOUND', 'File not found.');
    if (!existsSync(SAMPLE_VIDEO_PATH))
      return void res.status(404).type('text/plain').send('the simulator sample video is missing from this build');
    res.sendFile(SAMPLE_VIDEO_PATH, { headers: { 'Content-Type': 'video/mp4' } });
  }
}

/** Google answers a bad key with a 400 INVALID_ARGUMENT whose detail reason is API_KEY_INVALID. */
function authorized(req: Request, res: Response): boolean {
  if (req.header('x-goog-api-key') === SIMULATOR_API_KEY || req.query.key === SIMULATOR_API_KEY) return true;
  res.status(400).json({
    error: {
      code: 400,
      message: 'API key not valid. Please pass a valid API key.',
      status: 'INVALID_ARGUMENT',
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
    },
  });
  return false;
}

function fail(res: Response, code: number, status: string, message: string): void {
  res.status(code).json({ error: { code, message, status } });
}
