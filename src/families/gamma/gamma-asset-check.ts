import { AppError, ErrorCode } from '../../common/errors/app-error';

/** A reference image of a request: a verified asset (`asset://<id>`), or a plain URL; `field` is named in a 400. */
export interface AssetReferenceInput {
  url: string;
  assetId?: string;
  field: string;
}

/**
 * What family C's drafts ask of the verification module (which provides it under GAMMA_ASSET_CHECK):
 * whether the referenced assets may be used, and on which channels. Declared here so that the
 * family never imports the module above it.
 */
export interface GammaAssetCheck {
  /** The channels that may run the task (the provider account holding the assets), or undefined when any may; a 400 naming the field otherwise. */
  check(userId: number, references: AssetReferenceInput[]): Promise<number[] | undefined>;
}

export const GAMMA_ASSET_CHECK = Symbol('GAMMA_ASSET_CHECK');

/** The 403 of an account whose verification is not (or no longer) enabled. */
export const verificationNotEnabled = (): AppError =>
  new AppError(
    ErrorCode.Forbidden,
    'real-person verification is not enabled for this account: file an application at POST /v1/verification/applications and wait for approval',
  );
