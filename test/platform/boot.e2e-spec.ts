import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Controller, Get, type INestApplication, type Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import supertest from 'supertest';
import { AppConfig, ConfigError, CoreModule } from '#core';
import {
  AuthGuard,
  CreateApiKeyUseCase,
  GatewayModule,
  HttpErrorFilter,
  Public,
  RateLimitGuard,
  RequireScopes,
  RouteScopesVerifier,
  UndeclaredRouteScopeError,
} from '#gateway';
import { MIGRATIONS } from '#migrations';
import { bearer, startTestApp, TEST_ACTOR, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { TEST_APP_SECRET } from '../support/env.js';
import { createRedisNamespace } from '../support/redis.js';

// Booting an app against a fresh database can take a few seconds on a busy machine. The e2e project's
// testTimeout is not applied (jest-circus takes testTimeout from the global config), so set it here.
jest.setTimeout(60_000);

// ---- Controllers for the start-up check -------------------------------------------------------------

@Controller('undeclared')
class UndeclaredRouteController {
  @Get('declared')
  @RequireScopes('content:read')
  declared(): string {
    return 'ok';
  }

  @Get('forgotten')
  forgotten(): string {
    return 'oops';
  }
}

@Controller('method-level')
class MethodLevelController {
  @Get('read')
  @RequireScopes('content:read')
  read(): string {
    return 'ok';
  }

  @Get('open')
  @Public()
  open(): string {
    return 'ok';
  }

  /** Not a route: needs no declaration. */
  helper(): string {
    return 'helper';
  }
}

@Controller('class-scoped')
@RequireScopes('content:write')
class ClassScopedController {
  @Get()
  list(): string {
    return 'ok';
  }
}

@Controller('class-public')
@Public()
class ClassPublicController {
  @Get()
  list(): string {
    return 'ok';
  }
}

/** Builds a bare Nest app with the verifier and the given controllers, and initialises it. */
async function initWith(...controllers: Type[]): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [DiscoveryModule], controllers, providers: [RouteScopesVerifier] }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  try {
    await app.init();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}

describe('start-up refuses a route that declares neither @RequireScopes nor @Public', () => {
  it('rejects init with UndeclaredRouteScopeError naming only the undeclared route', async () => {
    const init = initWith(MethodLevelController, UndeclaredRouteController);
    await expect(init).rejects.toBeInstanceOf(UndeclaredRouteScopeError);
    const error = (await init.catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('UndeclaredRouteController.forgotten');
    expect(error.message).not.toContain('declared,');
    expect(error.message).not.toContain('MethodLevelController');
  });

  it('initialises when every route is declared, at method or controller level (helpers need nothing)', async () => {
    const app = await initWith(MethodLevelController, ClassScopedController, ClassPublicController);
    await app.close();
  });
});

// ---- Precedence of method and controller declarations in the auth guard ------------------------------

@Controller('public-controller')
@Public()
class PublicControllerWithScopedMethod {
  @Get('open')
  open(): { ok: true } {
    return { ok: true };
  }

  @Get('guarded')
  @RequireScopes('content:write')
  guarded(): { ok: true } {
    return { ok: true };
  }
}

@Controller('scoped-controller')
@RequireScopes('content:write')
class ScopedControllerWithPublicMethod {
  @Get('guarded')
  guarded(): { ok: true } {
    return { ok: true };
  }

  @Get('open')
  @Public()
  open(): { ok: true } {
    return { ok: true };
  }
}

describe("AuthGuard: a method's own declaration overrides its controller's", () => {
  let database: TestDatabase;
  const redis = createRedisNamespace();
  let dataDir: string;
  let app: INestApplication;
  let http: ReturnType<typeof supertest>;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'hc-boot-'));
    // Jobs (key usage) go to a private Redis namespace; this module runs no processors.
    const config = AppConfig.fromEnv({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      APP_SECRET: TEST_APP_SECRET,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
    });
    const moduleRef = await Test.createTestingModule({
      imports: [DiscoveryModule, CoreModule.forRoot(config, { migrations: MIGRATIONS, migrate: true, runsJobs: false }), GatewayModule],
      controllers: [PublicControllerWithScopedMethod, ScopedControllerWithPublicMethod],
      // The same global guards, in the same order, as the API module.
      providers: [
        RouteScopesVerifier,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    http = supertest(app.getHttpServer());
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await redis.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('requires the scopes of a @RequireScopes method inside a @Public controller', async () => {
    await http.get('/public-controller/open').expect(200);
    const anonymous = await http.get('/public-controller/guarded');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('unauthorized');
    const reader = await app.get(CreateApiKeyUseCase).execute({ name: 'reader', scopes: ['content:read'] }, TEST_ACTOR);
    const refused = await http.get('/public-controller/guarded').set(bearer(reader.plain));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('content:write');
    const writer = await app.get(CreateApiKeyUseCase).execute({ name: 'writer', scopes: ['content:write'] }, TEST_ACTOR);
    await http.get('/public-controller/guarded').set(bearer(writer.plain)).expect(200);
  });

  it('opens a @Public method inside a @RequireScopes controller, and guards the others', async () => {
    await http.get('/scoped-controller/open').expect(200);
    expect((await http.get('/scoped-controller/guarded')).status).toBe(401);
  });

  it('counts a @RequireScopes method inside a @Public controller against the per-key rate limit', async () => {
    const writer = await app.get(CreateApiKeyUseCase).execute({ name: 'limited', scopes: ['content:write'] }, TEST_ACTOR);
    const res = await http.get('/public-controller/guarded').set(bearer(writer.plain)).expect(200);
    expect(res.headers['x-ratelimit-limit']).toBe('600');
  });

  it('counts an ordinary scoped route against the per-key rate limit (the control for the known bug above)', async () => {
    const writer = await app.get(CreateApiKeyUseCase).execute({ name: 'limited', scopes: ['content:write'] }, TEST_ACTOR);
    const res = await http.get('/scoped-controller/guarded').set(bearer(writer.plain)).expect(200);
    expect(res.headers['x-ratelimit-limit']).toBe('600');
  });
});

// ---- Health probes -------------------------------------------------------------------------------------

describe.each([
  ['PostgreSQL and BullMQ on Redis', { redis: true }],
  ['PostgreSQL and the in-process queue', {}],
  ['embedded PostgreSQL', { embedded: true }],
])('health probes (%s)', (_label, options) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(options);
  });
  afterAll(() => t.close());

  it('GET /healthz answers 200 {status: ok} without a key', async () => {
    const res = await t.http.get('/healthz').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 with the database and the queue ok, without a key', async () => {
    const res = await t.http.get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', queue: 'ok' } });
  });

  it('ignores whatever Authorization a probe carries (a bad key is not a 401 there)', async () => {
    await t.http.get('/healthz').set('Authorization', 'Bearer nonsense').expect(200);
    await t.http.get('/readyz').set('Authorization', 'Basic Zm9vOmJhcg==').expect(200);
  });

  it('serves the probes outside /v1 only', async () => {
    expect((await t.http.get('/v1/healthz')).status).toBe(404);
    expect((await t.http.get('/v1/readyz')).status).toBe(404);
  });
});

describe('readiness with the queue unreachable', () => {
  let t: TestApp;
  let quiet: { mockRestore(): void };

  beforeAll(async () => {
    // BullMQ reports every failed reconnection on console.error; expected here, and noise in the test output.
    quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    // Nothing listens on port 1: BullMQ cannot reach Redis. This process does not run jobs.
    t = await startTestApp({ runsJobs: false, env: { REDIS_URL: 'redis://127.0.0.1:1', REDIS_PREFIX: 'hc-unreachable' } });
  });
  afterAll(async () => {
    await t.close();
    quiet.mockRestore();
  });

  it('GET /readyz answers 503 naming the queue, while /healthz stays 200', async () => {
    const res = await t.http.get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'ok', queue: 'unavailable' } });
    await t.http.get('/healthz').expect(200);
  });
});

describe('configuration errors stop start-up', () => {
  it.each([
    ['RATE_LIMIT_REQUESTS_PER_MINUTE', 'lots'],
    ['RATE_LIMIT_REQUESTS_PER_MINUTE', '0'],
    ['PORT', '70000'],
    ['APP_SECRET', 'short'],
    ['LOG_LEVEL', 'chatty'],
  ])('%s=%s is refused with a ConfigError naming the variable', (name, value) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hc-config-'));
    try {
      const attempt = () => AppConfig.fromEnv({ DATA_DIR: dataDir, APP_SECRET: TEST_APP_SECRET, [name]: value });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(name);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
