import { AppError } from '../common/errors/app-error';
import { validBody } from '../common/http/validation';
import { SubmitCommonFieldsDto } from './submit-common-fields.dto';

/** Which field the client gave the length in: OpenAI's `seconds` or `duration`. */
export type DurationField = 'duration' | 'seconds';

export interface CommonFields {
  model: string;
  /** The body the family reads: `seconds` turned into `duration` (a `duration` sent beside it wins). */
  body: Record<string, unknown>;
  durationField: DurationField;
}

/** The shared fields of a submit body (SubmitCommonFieldsDto), the first problem a 400 naming the field. */
export async function commonFieldsOf(sent: Record<string, unknown>): Promise<CommonFields> {
  const { model, seconds } = await validBody(SubmitCommonFieldsDto, sent);
  const body = { ...sent };
  delete body.seconds;
  if (body.duration !== undefined || seconds === undefined || seconds === '') return { model, body, durationField: 'duration' };
  return { model, body: { ...body, duration: Number(seconds) }, durationField: 'seconds' };
}

/**
 * The families read and name `duration`; a client that sent `seconds` is told about `seconds`,
 * the field it sent (`seconds must be 5 or 10 seconds for kling-v2-6`), never a field it did not send.
 */
export function namingSentDurationField(error: unknown, durationField: DurationField): unknown {
  if (durationField === 'duration' || !(error instanceof AppError) || error.options.param !== 'duration') return error;
  return new AppError(error.code, error.message.replace(/^duration\b/, 'seconds'), { ...error.options, param: 'seconds' });
}

/**
 * A refusal of a request that named its model by an alias: it names the model as the client did
 * (the families word their 400s with the entry's id), so that an old id's answers stay as they were.
 */
export function namingAskedModel(error: unknown, entryId: string, asked: string | undefined): unknown {
  if (asked === undefined || !(error instanceof AppError)) return error;
  const id = new RegExp(`(?<![\\w.:/-])${entryId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w:/-]|\\.\\w)`, 'g');
  if (!id.test(error.message)) return error;
  return new AppError(error.code, error.message.replace(id, asked), error.options);
}
