import type { FamilyTaskDraft } from '../family';

/**
 * The draft fields a text- or image-to-video family fills alike: the model, the action
 * (`imageGenerate` when the task starts from an image, else `textGenerate`) and the properties the
 * task's unified view shows (the prompt, and the model the client asked for).
 */
export function videoDraftFields(
  model: string,
  prompt: string,
  fromImage: boolean,
): Pick<FamilyTaskDraft, 'model' | 'action' | 'properties'> {
  return { model, action: fromImage ? 'imageGenerate' : 'textGenerate', properties: { input: prompt, origin_model_name: model } };
}
