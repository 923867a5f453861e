import { ApiProperty } from '@nestjs/swagger';
import { FEEDBACK_TYPES, type FeedbackReceipt, type FeedbackSummary, type FeedbackType, type FeedbackView, type HelpCenterUserView } from '#feedback';
import { CursorPageOf } from '../common/page.response.js';

export class HelpCenterUserResponse implements HelpCenterUserView {
  @ApiProperty({ example: 'hcusr_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({ format: 'email', description: 'Lowercase' })
  email: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class FeedbackUserResponse {
  @ApiProperty({ example: 'hcusr_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({ format: 'email' })
  email: string;
}

export class FeedbackResponse implements FeedbackView {
  @ApiProperty({ example: 'fb_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ type: String, nullable: true })
  articleId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The article title when the feedback was left' })
  articleTitle: string | null;

  @ApiProperty({ enum: FEEDBACK_TYPES })
  type: FeedbackType;

  @ApiProperty()
  feedback: string;

  @ApiProperty({ type: String, nullable: true, format: 'email' })
  email: string | null;

  @ApiProperty()
  resolved: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: FeedbackUserResponse, nullable: true, description: 'The help center user with this email, if any; null when anonymous or unknown' })
  user: FeedbackUserResponse | null;
}

/**
 * What the public feedback endpoint answers: the receipt, nothing else. The stored entry (its matched help center
 * user above all) is for keys with analytics:read; echoing it to anyone without a key would turn the form into an
 * email lookup.
 */
export class PublicFeedbackResponse implements FeedbackReceipt {
  @ApiProperty({ example: 'fb_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class FeedbackPage extends CursorPageOf(FeedbackResponse, 'FeedbackPage') {}
export class HelpCenterUserPage extends CursorPageOf(HelpCenterUserResponse, 'HelpCenterUserPage') {}

export class ResolvedResponse {
  @ApiProperty()
  id: string;

  @ApiProperty()
  resolved: boolean;
}

export class FeedbackSummaryResponse implements FeedbackSummary {
  @ApiProperty()
  positive: number;

  @ApiProperty()
  negative: number;

  @ApiProperty()
  unresolved: number;
}
