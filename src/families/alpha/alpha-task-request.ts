import type { StagedImageRef } from '../shared/staged-image-inputs.service';
import type { AlphaQuality } from './alpha-models';

/**
 * A validated family A request as kept in `task.request`: the upstream body's fields (snake_case,
 * as the provider names them) plus how to get the image. Never holds image bytes.
 */
export type AlphaTaskRequest = {
  mode: 'text' | 'image';
  prompt?: string;
  duration: number;
  quality: AlphaQuality;
  /** Text-to-video only: the image decides the shape otherwise. */
  aspect_ratio?: string;
  negative_prompt?: string;
  seed?: number;
  motion_mode?: 'normal' | 'fast';
  camera_movement?: string;
  template_id?: number;
  style?: string;
  water_mark?: boolean;
  generate_audio_switch?: boolean;
  /** Given by the client, or learned from the upload (stored through the submit's requestPatch). */
  img_id?: number;
  image?: StagedImageRef;
};

/** The JSON body of `/openapi/v2/video/{text|img}/generate`. */
export function generateBody(upstreamModel: string, request: AlphaTaskRequest, imgId?: number): Record<string, unknown> {
  const { mode, image: _image, img_id: _imgId, aspect_ratio, ...common } = request;
  const body: Record<string, unknown> = { model: upstreamModel, ...common };
  if (mode === 'text') body.aspect_ratio = aspect_ratio;
  else body.img_id = imgId;
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}
