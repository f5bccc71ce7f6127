import { readFileSync } from 'node:fs';
import { SAMPLE_IMAGE_PATH } from '../../src/families/simulator-shared/sample-video';

/** The simulator's sample PNG, as the family specs send it: its bytes (a file part) and a data URI. */
export const SAMPLE_PNG = readFileSync(SAMPLE_IMAGE_PATH);
export const SAMPLE_PNG_DATA_URI = `data:image/png;base64,${SAMPLE_PNG.toString('base64')}`;
