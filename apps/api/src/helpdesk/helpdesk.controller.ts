import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '#gateway';
import { GetHelpdeskUseCase, UpdateHelpdeskUseCase } from '#content';
import { UpdateHelpdeskRequest } from './dto/update-helpdesk.request.js';
import { HelpdeskResponse } from './helpdesk.response.js';

@ApiTags('Helpdesk')
@Controller('helpdesk')
export class HelpdeskController {
  constructor(
    private readonly getHelpdesk: GetHelpdeskUseCase,
    private readonly updateHelpdesk: UpdateHelpdeskUseCase,
  ) {}

  @Get()
  @RequireScopes('content:read')
  @ApiOperation({ summary: 'Get the helpdesk', description: 'Name, default language, enabled languages and the public help center\'s branding (logo, accent colour, footer links).' })
  @ApiOkResponse({ type: HelpdeskResponse })
  async get(): Promise<HelpdeskResponse> {
    return HelpdeskResponse.from(await this.getHelpdesk.execute());
  }

  @Patch()
  @RequireScopes('content:write')
  @ApiOperation({
    summary: 'Update the helpdesk',
    description:
      'Changes the name, the enabled languages (the default language cannot be removed) and the branding every public help center page shows: `logoUrl` (http(s), or null), `accentColor` (`#rrggbb`, or null) and `footerLinks` (at most 10, each a label of 1 to 60 characters and an http(s) or mailto URL). Omitted fields stay as they are.',
  })
  @ApiOkResponse({ type: HelpdeskResponse })
  async update(@Body() body: UpdateHelpdeskRequest): Promise<HelpdeskResponse> {
    return HelpdeskResponse.from(await this.updateHelpdesk.execute(body));
  }
}
