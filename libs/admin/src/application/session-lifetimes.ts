import { Injectable } from '@nestjs/common';
import { SettingsConfig } from '#core';

/** SETTINGS_SESSION_IDLE_MINUTES and SETTINGS_SESSION_MAX_HOURS in milliseconds. */
@Injectable()
export class SessionLifetimes {
  readonly idleMs: number;
  readonly maxMs: number;

  constructor(settings: SettingsConfig) {
    this.idleMs = settings.sessionIdleMinutes * 60_000;
    this.maxMs = settings.sessionMaxHours * 3_600_000;
  }
}
