import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { HeldValues } from '../../common/runtime/held-values';
import type { UploadedPart } from '../family';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { OpenAiFileRef } from './openai-protocol';

const MIME = /^[\w.+-]+\/[\w.+-]+$/;

/**
 * Keeps an `input_reference` file part in memory from the request schema to the upstream submit
 * (`task.request` holds only its digest). Nothing is kept after the submit: the provider does
 * not de-duplicate, so an interrupted submit is failed and refunded, never resent.
 */
@Injectable()
export class OpenAiInputFiles {
  private readonly staged = new HeldValues<Buffer>();

  stage(part: UploadedPart): { ref: OpenAiFileRef; release: () => void } {
    const sha256 = createHash('sha256').update(part.buffer).digest('hex');
    const mime = part.mimetype && MIME.test(part.mimetype) ? part.mimetype : 'application/octet-stream';
    const filename = part.originalname && /^[\w.+-]{1,128}$/.test(part.originalname) ? part.originalname : 'input_reference';
    return { ref: { sha256, filename, mime, size: part.buffer.length }, release: this.staged.hold(sha256, part.buffer) };
  }

  load(ref: OpenAiFileRef): Buffer {
    const staged = this.staged.get(ref.sha256);
    if (!staged) throw new UpstreamError('invalid_input', 'the input_reference file is no longer available, send it again');
    return staged;
  }
}
