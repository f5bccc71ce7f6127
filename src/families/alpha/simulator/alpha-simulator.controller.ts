import { Get, Head, Post, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Request } from 'express';
import { emulatorController } from '../../shared/emulator-simulator';
import { emulatorRequestOf } from '../../simulator-shared/emulator-http';
import { AlphaEmulator, AlphaEmulatorRequest, AlphaUploadForm } from '../emulator/alpha-emulator';

/** What multer hands over of the `image` part. */
interface UploadedImage {
  buffer: Buffer;
  originalname?: string;
  mimetype?: string;
}

/** An image upload as the emulator takes it: its form (the `image` part, or an `image_url` field), never its body as JSON. */
function uploadRequestOf(req: Request, mount: string): AlphaEmulatorRequest {
  const image = (req as Request & { file?: UploadedImage }).file;
  const fields = (req.body ?? {}) as Record<string, unknown>;
  const upload: AlphaUploadForm = {
    ...(image ? { file: { data: image.buffer, filename: image.originalname, contentType: image.mimetype } } : {}),
    ...(typeof fields.image_url === 'string' ? { imageUrl: fields.image_url } : {}),
  };
  return { ...emulatorRequestOf(req, mount), upload, json: undefined };
}

/**
 * The embedded family A provider under /simulator/alpha: every route is the family's one emulator
 * (emulator/alpha-emulator.ts). The temporary video URL (`files/:file`) needs no API key, like a
 * signed link, and takes Range and HEAD as a CDN does.
 */
export class AlphaSimulatorController extends emulatorController('alpha', AlphaEmulator, [
  {
    decorators: [Post('openapi/v2/image/upload'), UseInterceptors(FileInterceptor('image', { limits: { fileSize: 20 * 1024 * 1024 } }))],
    requestOf: uploadRequestOf,
  },
  [Post('openapi/v2/video/text/generate')],
  [Post('openapi/v2/video/img/generate')],
  [Get('openapi/v2/video/result/:id')],
  [Get('files/:file'), Head('files/:file')],
]) {}
