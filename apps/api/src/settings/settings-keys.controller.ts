import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Clock, NotFoundError } from '#core';
import { type ApiKey, CreateApiKeyUseCase, ListApiKeysUseCase, RevokeApiKeyUseCase } from '#gateway';
import { SettingsController } from './controllers.js';
import { expiryOf } from './http/form.js';
import { formOf, type SettingsRequest } from './http/settings-request.js';
import { formErrorsOf, SettingsPages } from './settings-pages.js';
import type { NewKeyValues } from './views/keys-views.js';
import type { FormErrors } from './views/parts.js';
import { renderSettings } from './views/pages.js';

const KEY_FIELDS = { name: 'key-name', scopes: 'key-scopes', expires_at: 'key-expires', expiresAt: 'key-expires' };
/** API keys: the list, the create form (the key shown once, in the POST's own answer), revoke with confirmation. */
@SettingsController()
export class SettingsKeysController {
  constructor(
    private readonly pages: SettingsPages,
    private readonly listKeys: ListApiKeysUseCase,
    private readonly createKey: CreateApiKeyUseCase,
    private readonly revokeKey: RevokeApiKeyUseCase,
    private readonly clock: Clock,
  ) {}

  @Get('keys')
  async list(@Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const keys = await this.listKeys.execute();
    this.pages.send(response, 200, renderSettings.keys(this.pages.context(request, 'keys'), keys, this.clock.now()));
  }

  @Get('keys/new')
  newForm(@Req() request: SettingsRequest, @Res() response: Response): void {
    this.pages.send(response, 200, renderSettings.newKey(this.pages.context(request, 'keys'), { name: '', scopes: [], expiresOn: '' }, this.today()));
  }

  /**
   * Creates the key and answers with it, this once, on a no-store page: it is never put in a URL, a cookie or a log,
   * and no later page can show it (only its hash is stored).
   */
  @Post('keys/new')
  async create(@Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const form = formOf(request);
    const ctx = this.pages.context(request, 'keys');
    const values: NewKeyValues = { name: form.text('name'), scopes: form.all('scopes'), expiresOn: form.text('expires_on') };
    const expiresAt = expiryOf(values.expiresOn);
    const errors: FieldErrorList = [];
    if (values.name.trim() === '') errors.push({ id: 'key-name', message: 'Enter a name for the key.' });
    if (values.scopes.length === 0) errors.push({ id: 'key-scopes', message: 'Choose at least one scope.' });
    if (expiresAt === 'invalid') errors.push({ id: 'key-expires', message: 'Enter the expiry as a date, e.g. 2027-01-31, or leave it empty.' });
    else if (expiresAt !== null && expiresAt.getTime() <= this.clock.now().getTime()) errors.push({ id: 'key-expires', message: 'The expiry must be today or later.' });
    if (errors.length > 0 || expiresAt === 'invalid') {
      this.pages.send(response, 400, renderSettings.newKey(ctx, values, this.today(), errors));
      return;
    }
    try {
      const created = await this.createKey.execute({ name: values.name, scopes: values.scopes, expiresAt }, this.pages.actor(request));
      this.pages.send(response, 201, renderSettings.keyCreated(ctx, created.key, created.plain));
    } catch (error) {
      this.pages.send(response, 400, renderSettings.newKey(ctx, values, this.today(), formErrorsOf(error, KEY_FIELDS, 'key-name')));
    }
  }

  @Get('keys/:id/revoke')
  async revokeConfirm(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const key = await this.find(id);
    this.pages.send(response, 200, renderSettings.revokeKey(this.pages.context(request, 'keys'), key));
  }

  /** Revokes: the next request with the key gets 401, on every API process. */
  @Post('keys/:id/revoke')
  async revoke(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    await this.revokeKey.execute(id, this.pages.actor(request));
    this.pages.redirect(response, this.pages.urls.keys('key_revoked'));
  }

  private async find(id: string): Promise<ApiKey> {
    const key = (await this.listKeys.execute()).find((candidate) => candidate.id === id);
    if (!key) throw new NotFoundError('API key', id);
    return key;
  }

  private today(): string {
    return this.clock.now().toISOString().slice(0, 10);
  }
}

type FieldErrorList = Array<FormErrors[number]>;
