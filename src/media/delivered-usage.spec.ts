import { deliveredResolution, deliveredSeconds, deliveredUsage, shortEdgeOf } from './delivered-usage';

/** The resolution names the catalog uses across its families, as they spell them. */
const CATALOG_NAMES = ['360p', '480p', '512P', '540p', '720p', '768P', '1080p', '4k'];

describe('what a delivered video is billed as', () => {
  it.each([
    [5.04, 5],
    [4.96, 5],
    [4.5, 5],
    [5.49, 5],
    [5.5, 6],
    [10.02, 10],
    [0.4, 0],
  ])('%s s are %s billed seconds (rounded to the nearest, a half up)', (duration, seconds) => {
    expect(deliveredSeconds(duration)).toBe(seconds);
  });

  it.each([
    ['720p', 720],
    ['720P', 720],
    ['1080p', 1080],
    ['4k', 2160],
    ['4K', 2160],
    ['1280x720', 720],
    ['720x1280', 720],
    ['*', null],
    ['hd', null],
  ])('the name %s stands for a short edge of %s', (name, edge) => {
    expect(shortEdgeOf(name)).toBe(edge);
  });

  it.each([
    // the frame's short edge names it, landscape or portrait
    [1280, 720, ['480p', '720p', '1080p'], '720p'],
    [720, 1280, ['480p', '720p', '1080p'], '720p'],
    [1920, 1080, ['480p', '720p', '1080p'], '1080p'],
    [854, 480, ['480p', '720p', '1080p'], '480p'],
    [3840, 2160, ['720p', '1080p', '4k'], '4k'],
    [720, 720, ['480p', '720p'], '720p'],
    // between two names, the lower one
    [1920, 1072, ['480p', '720p', '1080p'], '720p'],
    [1280, 719, ['480p', '720p', '1080p'], '480p'],
    [2560, 1440, ['720p', '1080p', '4k'], '1080p'],
    [960, 540, CATALOG_NAMES, '540p'],
    [1366, 768, CATALOG_NAMES, '768P'],
    [912, 512, CATALOG_NAMES, '512P'],
    // above them all, the highest; below them all, the lowest
    [7680, 4320, ['720p', '1080p'], '1080p'],
    [320, 180, ['480p', '720p', '1080p'], '480p'],
    [320, 180, CATALOG_NAMES, '360p'],
    // spelt as the catalog spells it, in any order, names that are no size left out
    [1920, 1080, ['1080P', '768P', '*'], '1080P'],
    [1280, 720, ['*'], null],
    [1280, 720, [], null],
  ])('%sx%s among %j is billed as %s', (width, height, names, name) => {
    expect(deliveredResolution(width, height, names)).toBe(name);
  });

  it('takes seconds, resolution and audio from the facts', () => {
    const facts = { durationSeconds: 5.04, width: 720, height: 1280, hasAudio: false };
    expect(deliveredUsage(facts, ['480p', '720p', '1080p'])).toEqual({ seconds: 5, resolution: '720p', audio: false });
  });
});
