/** Family C's platform name: its channels also hold the verification control plane (src/verification). */
export const GAMMA_PLATFORM = 'gamma';
