import { toUnixSeconds } from '../common/runtime/clock';
import type { ApplicationDto } from './dto/application.dto';
import type { AssetDto, GroupDto } from './dto/asset.dto';
import type { SessionDto } from './dto/session.dto';
import type { VerificationApplicationEntity } from './entities/verification-application.entity';
import type { VerificationAssetEntity } from './entities/verification-asset.entity';
import type { VerificationGroupEntity } from './entities/verification-group.entity';
import type { VerificationSessionEntity } from './entities/verification-session.entity';
import { maskToken } from './token-mask';

export const toApplicationView = (application: VerificationApplicationEntity, username?: string | null): ApplicationDto => ({
  id: application.id,
  user_id: application.userId,
  ...(username !== undefined ? { username } : {}),
  company: application.company,
  use_case: application.useCase,
  contact: application.contact,
  status: application.status,
  review_note: application.reviewNote,
  reviewed_at: application.reviewedAt ? toUnixSeconds(application.reviewedAt) : null,
  created_at: toUnixSeconds(application.createdAt),
});

export const toSessionView = (session: VerificationSessionEntity): SessionDto => ({
  session_id: session.sessionId,
  status: session.status,
  group_id: session.status === 'succeeded' ? session.groupId : null,
  provider_token: maskToken(session.providerToken),
  result_code: session.resultCode,
  expires_at: toUnixSeconds(session.expiresAt),
  created_at: toUnixSeconds(session.createdAt),
});

export const toAssetView = (asset: VerificationAssetEntity): AssetDto => ({
  asset_id: asset.assetId,
  group_id: asset.groupId,
  name: asset.name,
  status: asset.status,
  error: asset.error,
  created_at: toUnixSeconds(asset.createdAt),
});

export const toGroupView = (group: VerificationGroupEntity): GroupDto => ({
  group_id: group.groupId,
  session_id: group.sessionId,
  created_at: toUnixSeconds(group.createdAt),
});
