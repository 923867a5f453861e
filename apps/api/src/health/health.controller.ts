import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CheckReadinessUseCase } from '#core';
import { Public } from '#gateway';

class LivenessResponse {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';
}

class ReadinessChecks {
  @ApiProperty({ enum: ['ok', 'unavailable'] })
  database: 'ok' | 'unavailable';

  @ApiProperty({ enum: ['ok', 'unavailable'] })
  queue: 'ok' | 'unavailable';
}

class ReadinessResponse {
  @ApiProperty({ enum: ['ok', 'unavailable'] })
  status: 'ok' | 'unavailable';

  @ApiProperty({ type: ReadinessChecks })
  checks: ReadinessChecks;
}

/** Liveness and readiness probes, outside /v1 and without a key. */
@ApiTags('Health')
@Controller()
export class HealthController {
  constructor(private readonly readiness: CheckReadinessUseCase) {}

  @Get('healthz')
  @Public()
  @ApiOperation({ summary: 'Liveness', description: 'The process is up. No key needed.' })
  @ApiOkResponse({ type: LivenessResponse })
  live(): LivenessResponse {
    return { status: 'ok' };
  }

  @Get('readyz')
  @Public()
  @ApiOperation({ summary: 'Readiness', description: 'The database and the job queue answer. 503 when either does not. No key needed.' })
  @ApiOkResponse({ type: ReadinessResponse })
  @ApiServiceUnavailableResponse({ type: ReadinessResponse })
  async ready(@Res({ passthrough: true }) response: Response): Promise<ReadinessResponse> {
    const result = await this.readiness.execute();
    response.status(result.ready ? 200 : 503);
    return { status: result.ready ? 'ok' : 'unavailable', checks: { ...result.checks } };
  }
}
