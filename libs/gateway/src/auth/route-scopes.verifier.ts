import { Injectable, type OnModuleInit } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { routeAccess } from './route-access.js';

export class UndeclaredRouteScopeError extends Error {
  constructor(routes: readonly string[]) {
    super(`Route(s) declare neither @RequireScopes() nor @Public(): ${routes.join(', ')}. Refusing to start.`);
    this.name = 'UndeclaredRouteScopeError';
  }
}

/** Fails start-up when any controller route declares neither scopes nor @Public(). */
@Injectable()
export class RouteScopesVerifier implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const undeclared: string[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[method] as () => unknown;
        if (this.reflector.get(METHOD_METADATA, handler) === undefined || this.reflector.get(PATH_METADATA, handler) === undefined) continue;
        if (routeAccess(this.reflector, handler, controller) === undefined) undeclared.push(`${controller.name}.${method}`);
      }
    }
    if (undeclared.length > 0) throw new UndeclaredRouteScopeError(undeclared);
  }
}
