import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RedemptionCodesService } from '../../billing/redemption/redemption-codes.service';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';
import { RedeemDto, RedeemedDto } from './redemption-code.dto';

/** A customer redeems a code into their balance (a `topup` row naming the code's hint). */
@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@Controller('console/api/redeem')
export class CustomerRedeemController {
  constructor(private readonly codes: RedemptionCodesService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Redeem a code: its quota is added once; a 400 says why not (unknown, already redeemed, expired)' })
  @ApiOkResponse({ type: RedeemedDto })
  @ApiBadRequestResponse({ description: '`param` is `code`; the message says why' })
  async redeem(@Req() req: ConsoleRequest, @Body() body: RedeemDto): Promise<RedeemedDto> {
    const row = await this.codes.redeem(req.user!.id, body.code);
    return { quota_added: row.quota, quota: row.balanceAfter };
  }
}
