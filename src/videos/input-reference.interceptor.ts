import { FileFieldsInterceptor } from '@nestjs/platform-express';
import { multipartOptions } from '../common/http/multipart-limits';

/**
 * Multipart limits: one image part, and text fields big enough for a data URI, in a request no larger
 * than the JSON body limit allows plus room for the form's framing and small fields.
 */
const MULTIPART_OPTIONS = multipartOptions({
  maxRequestBytes: 21 * 1024 * 1024,
  maxFileBytes: 20 * 1024 * 1024,
  maxFieldBytes: 20 * 1024 * 1024,
  maxFields: 50,
  maxFiles: 1,
});

/**
 * A multipart submit's `input_reference` file part (multer). A named class of its own, so the hot
 * dispatch can say it needs not apply it: multer reads multipart bodies only, and the hot routes take JSON ones.
 */
export const InputReferenceInterceptor = FileFieldsInterceptor([{ name: 'input_reference', maxCount: 1 }], MULTIPART_OPTIONS);
