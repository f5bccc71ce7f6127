/** A first or last frame as a task keeps it: an https URL Runway fetches, or a data URI held in memory until the submit (by digest). */
export type RunwayImageRef = { url: string } | { staged: string };

/** The validated Runway request a task keeps (`task.request`); the adapter builds the provider's body from it. */
export type RunwayTaskRequest = {
  /** `text`: POST /v1/text_to_video; `image`: POST /v1/image_to_video; `video`: POST /v1/video_to_video (a remix). */
  mode: 'text' | 'image' | 'video';
  promptText?: string;
  /** `<w>:<h>` pixels. */
  ratio: string;
  duration: number;
  seed?: number;
  negativePrompt?: string;
  firstFrame?: RunwayImageRef;
  lastFrame?: RunwayImageRef;
  /** `video`: the source video, the gateway's signed link (`videoUri`). */
  videoUri?: string;
  /** The client's `metadata`, sent as it is. */
  extra: Record<string, unknown>;
};
