import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountRateLimiter } from './account-rate-limiter';
import { AdminTokenService } from './admin-token.service';
import { AdminGuard } from './admin.guard';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyLastUsed } from './api-key-last-used';
import { ApiKeySpending } from './api-key-spending';
import { KeyRefusals } from './key-refusals';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeysService } from './api-keys.service';
import { UserEntity } from './user.entity';
import { UserRepository } from './user.repository';
import { UsersService } from './users.service';

/** Users, API keys (and their account rate limit), the admin token and the guards that use them. */
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, ApiKeyEntity])],
  providers: [
    UserRepository,
    ApiKeyRepository,
    UsersService,
    ApiKeysService,
    ApiKeyCache,
    ApiKeySpending,
    ApiKeyLastUsed,
    KeyRefusals,
    AccountRateLimiter,
    ApiKeyGuard,
    AdminTokenService,
    AdminGuard,
  ],
  exports: [
    // UserRepository: billing's ledger moves the balance through it, in its own transaction.
    UserRepository,
    UsersService,
    ApiKeysService,
    ApiKeyCache,
    ApiKeySpending,
    KeyRefusals,
    AccountRateLimiter,
    ApiKeyGuard,
    AdminTokenService,
    AdminGuard,
  ],
})
export class AuthModule {}
