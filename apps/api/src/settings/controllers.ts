import { applyDecorators, Controller, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '#gateway';
import { SettingsErrorFilter } from './settings-error.filter.js';
import { SettingsGuard } from './settings.guard.js';

/**
 * A controller of the developer settings: outside the OpenAPI document, no API key (`@Public()`: the settings
 * authenticate admins with their own session guard), its errors as pages.
 */
export function SettingsController(): ClassDecorator {
  return applyDecorators(ApiExcludeController(), Public(), UseGuards(SettingsGuard), UseFilters(SettingsErrorFilter), Controller('settings'));
}

/** The first value of a query parameter as text (a repeated one counts once). */
export function queryText(value: unknown): string | undefined {
  if (Array.isArray(value)) return queryText(value[0]);
  return typeof value === 'string' && value !== '' ? value : undefined;
}
