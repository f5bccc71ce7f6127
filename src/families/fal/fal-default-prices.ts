import { DefaultPrice, perClip, perSecond } from '../../billing/default-prices';

/**
 * fal's list prices of the builtin endpoints, in credits per second (1 credit = 0.01 USD): Kling
 * 2.5 Turbo Pro $0.35 per 5 s and $0.07 per further second [F26]: 7; MiniMax Hailuo-02 Standard
 * $0.045/s at 768P [F29]: 4.5; Veo 3.1 $0.20/s silent, $0.40/s with audio at 720p and 1080p [F27]; Veo 3.1
 * Fast $0.10/s silent, $0.15/s with audio (fal.ai/models/fal-ai/veo3.1/fast/.../llms.txt); MiniMax Hailuo 2.3
 * Standard $0.28 a 6 s clip, $0.56 a 10 s one (fal.ai/models/fal-ai/minimax/hailuo-2.3/standard/text-to-video/llms.txt).
 * (docs/families.md, fal: the sources.)
 */
export const FAL_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('kling-v2-5-turbo', { '1080p': [7, null] }),
  ...perSecond('fal-hailuo-02-standard', { '768p': [4.5, null] }),
  ...perSecond('veo3.1', { '720p': [20, 40], '1080p': [20, 40] }),
  ...perSecond('veo3.1_fast', { '720p': [10, 15], '1080p': [10, 15] }),
  // fal lists Kling 3 Standard at $0.084/s, $0.126 with audio; Pro (1080p) taken at Kling's own 1080p rate: UNCONFIRMED.
  ...perSecond('kling-v3', { '1080p': [11.2, 16.8] }),
  // Seedance 2.0 bills tokens ($0.014 per 1000; fast $0.0112): 21,600 a second at 720p, 9,720 at 480p, audio included.
  ...perSecond('seedance-2-0', { '720p': [30.34, 30.34], '480p': [13.61, 13.61] }),
  ...perSecond('seedance-2-0-fast', { '720p': [24.19, 24.19], '480p': [10.89, 10.89] }),
  ...perClip('MiniMax-Hailuo-2.3', { '768p': { 6: 28, 10: 56 } }),
];
