/**
 * Layer rules, checked by `npm run lint:arch` (and in CI):
 * - domain code imports nothing from Nest, TypeORM, class-validator or class-transformer,
 *   and from libs/core only its framework-free face (`#core/domain`);
 * - apps import a lib only through its index (`#core`, `#content`, ...), never its inner files;
 * - an app never imports another app (what two apps share lives in a lib);
 * - libs never import apps; libs/core imports no other lib; libs/gateway and libs/admin build on libs/core only;
 *   libs reach each other only through their index.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-framework-free',
      severity: 'error',
      comment: 'Domain code must not depend on Nest, TypeORM or class-validator/transformer.',
      from: { path: '^libs/[^/]+/src/.+/domain/' },
      to: { path: 'node_modules/(@nestjs|typeorm|class-validator|class-transformer|bullmq|ioredis|pg)/' },
    },
    {
      name: 'domain-uses-framework-free-core',
      severity: 'error',
      comment: 'Domain code imports libs/core through #core/domain only.',
      from: { path: '^libs/[^/]+/src/.+/domain/' },
      to: { path: '^libs/core/src/', pathNot: '^libs/core/src/(domain\\.ts|errors/|ids/|access/|events/event-type\\.ts)' },
    },
    {
      name: 'apps-use-lib-index',
      severity: 'error',
      comment: 'Apps import a lib only through its public index.',
      from: { path: '^apps/' },
      to: { path: '^libs/[^/]+/src/', pathNot: '^libs/[^/]+/src/(index|domain)\\.ts$' },
    },
    {
      name: 'apps-do-not-import-other-apps',
      severity: 'error',
      comment: 'An app never imports another app; what two apps share lives in a lib.',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'libs-do-not-import-apps',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'core-is-the-bottom-layer',
      severity: 'error',
      from: { path: '^libs/core/' },
      to: { path: '^libs/(?!core/)' },
    },
    {
      name: 'gateway-builds-on-core-only',
      severity: 'error',
      comment: 'libs/gateway (API keys, auth, rate limits, idempotency, HTTP plumbing) depends on libs/core and nothing else.',
      from: { path: '^libs/gateway/' },
      to: { path: '^libs/(?!core/|gateway/)' },
    },
    {
      name: 'admin-builds-on-core-only',
      severity: 'error',
      comment: 'libs/admin (admin accounts, sessions, setup links, sign-in throttling) depends on libs/core and nothing else.',
      from: { path: '^libs/admin/' },
      to: { path: '^libs/(?!core/|admin/)' },
    },
    {
      name: 'libs-use-other-lib-index',
      severity: 'error',
      comment: 'A lib reaches another lib only through its index.',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: ['^libs/$1/', '^libs/[^/]+/src/(index|domain)\\.ts$'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^(apps|libs)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
    exclude: { path: '(^dist/|\\.spec\\.tsx?$)' },
  },
};
