import type { MulterModuleOptions as MulterOptions } from '@nestjs/platform-express';
import type { IncomingMessage } from 'node:http';
import type { Writable } from 'node:stream';
import { AppError } from '../errors/app-error';
import { findUnstorableText } from './storable-text';

export interface MultipartLimits {
  /** The whole request, framing included: what a multipart request may make the gateway read. */
  maxRequestBytes: number;
  /** Each file part. */
  maxFileBytes: number;
  /** Each text field's value. */
  maxFieldBytes: number;
  maxFields: number;
  maxFiles: number;
}

/** Shaped like body-parser's own limit error, so the one filter answers it the same way (413). */
const tooLarge = (): Error => Object.assign(new Error('request body too large'), { status: 413, type: 'entity.too.large' });

/**
 * multer options that bound a multipart request as a whole, not only part by part: busboy limits the
 * count and size of parts, and the request is cut off once it declares or sends more than
 * `maxRequestBytes` (a chunked upload has no length to check up front). A text field no database can
 * store is a 400 naming it.
 */
export function multipartOptions(limits: MultipartLimits): MulterOptions {
  const options: MulterOptions & { streamHandler(req: IncomingMessage, busboy: Writable): void } = {
    limits: {
      fileSize: limits.maxFileBytes,
      files: limits.maxFiles,
      fieldSize: limits.maxFieldBytes,
      fields: limits.maxFields,
      parts: limits.maxFields + limits.maxFiles,
    },
    streamHandler(req, busboy) {
      const declared = Number(req.headers['content-length']);
      if (declared > limits.maxRequestBytes) {
        busboy.destroy(tooLarge());
        return;
      }
      let received = 0;
      const countBytes = (chunk: Buffer): void => {
        received += chunk.length;
        if (received <= limits.maxRequestBytes) return;
        req.off('data', countBytes);
        // multer fails the request with busboy's error, after draining the rest of the upload.
        busboy.destroy(tooLarge());
      };
      // Registered in the same tick as the pipe, so the counter sees every chunk busboy does.
      req.on('data', countBytes);
      // Multipart text enters here, past the body parsers: the same rule as a JSON field (refuseUnstorableText).
      busboy.on('field', (name: string, value: string) => {
        const found = findUnstorableText({ [name]: value });
        if (found) busboy.destroy(AppError.invalid(found.message, found.field));
      });
      req.pipe(busboy);
    },
  };
  return options;
}
