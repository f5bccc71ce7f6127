import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { ColumnLength, ToleratesUnknownFields } from '../../common/http/validation';
import { PageQueryDto } from '../../common/http/page-query.dto';

@ToleratesUnknownFields()
export class CreateApplicationDto {
  @ApiProperty({ example: 'Acme Pictures Ltd.' })
  @IsString()
  @ColumnLength(1, 200)
  company: string;

  @ApiProperty({ example: 'Personalised greeting videos of our own presenters, with their consent.' })
  @IsString()
  @Length(1, 5000)
  use_case: string;

  @ApiProperty({ example: 'jane@acme.example, +1 555 0100' })
  @IsString()
  @ColumnLength(1, 200)
  contact: string;
}

export class ApplicationDto {
  @ApiProperty({ example: 12 }) id: number;
  @ApiProperty({ example: 7 }) user_id: number;
  @ApiPropertyOptional({ example: 'acme', description: 'in admin listings' }) username?: string | null;
  @ApiProperty({ example: 'Acme Pictures Ltd.' }) company: string;
  @ApiProperty() use_case: string;
  @ApiProperty() contact: string;
  @ApiProperty({ enum: ['pending', 'approved', 'rejected'] }) status: string;
  @ApiProperty({ nullable: true, type: String, description: "the reviewer's note" }) review_note: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Unix seconds' }) reviewed_at: number | null;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
}

export class OwnApplicationsDto {
  @ApiProperty({ type: [ApplicationDto], description: 'newest first' }) data: ApplicationDto[];
  @ApiProperty({ description: 'whether the account may use verification now' }) verification_enabled: boolean;
}

export class ApplicationListDto {
  @ApiProperty({ type: [ApplicationDto] }) data: ApplicationDto[];
  @ApiProperty() total: number;
}

export class ApplicationQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'approved', 'rejected'] })
  @IsOptional()
  @IsIn(['pending', 'approved', 'rejected'])
  status?: 'pending' | 'approved' | 'rejected';
}

export class ReviewApplicationDto {
  @ApiPropertyOptional({ example: 'use case confirmed by phone' })
  @IsOptional()
  @IsString()
  @Length(0, 2000)
  note?: string;
}
