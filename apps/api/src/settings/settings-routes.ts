import { RequestMethod } from '@nestjs/common';

/**
 * The developer settings' routes as `setGlobalPrefix` exclusions: served under `/settings`, not `/v1/settings`. Nest
 * tests an exclusion against a route's declared path, so `settings` and `settings/*rest` cover every settings route.
 */
export function settingsRoutesOutsideApiPrefix(): Array<{ path: string; method: RequestMethod }> {
  return [
    { path: 'settings', method: RequestMethod.ALL },
    { path: 'settings/*rest', method: RequestMethod.ALL },
  ];
}
