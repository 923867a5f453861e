import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  type AdminView,
  ChangeOwnPasswordUseCase,
  CreateAdminUseCase,
  LastAdminError,
  ListAdminsUseCase,
  ListAuditEntriesUseCase,
  ListOwnSessionsUseCase,
  RemoveAdminUseCase,
  RevokeOwnSessionUseCase,
} from '#admin';
import { ConflictError, NotFoundError } from '#core';
import { queryText, SettingsController } from './controllers.js';
import { authOf, formOf, type SettingsRequest } from './http/settings-request.js';
import { formErrorsOf, SettingsPages } from './settings-pages.js';
import { renderSettings } from './views/pages.js';

const AUDIT_PER_PAGE = 50;
const ADMIN_FIELDS = { email: 'admin-email', name: 'admin-name', password: 'admin-password' };
const PASSWORD_FIELDS = { currentPassword: 'current-password', newPassword: 'new-password', password: 'new-password' };

/** The audit log, the admins (add, remove, never the last), and the signed-in admin's own account and sessions. */
@SettingsController()
export class SettingsAdminsController {
  constructor(
    private readonly pages: SettingsPages,
    private readonly listAudit: ListAuditEntriesUseCase,
    private readonly listAdmins: ListAdminsUseCase,
    private readonly createAdmin: CreateAdminUseCase,
    private readonly removeAdmin: RemoveAdminUseCase,
    private readonly listSessions: ListOwnSessionsUseCase,
    private readonly revokeSession: RevokeOwnSessionUseCase,
    private readonly changePassword: ChangeOwnPasswordUseCase,
  ) {}

  @Get('audit')
  async audit(@Query('cursor') cursor: unknown, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const page = await this.listAudit.execute({ pageSize: AUDIT_PER_PAGE, startCursor: queryText(cursor) });
    const next = page.has_more && page.next_cursor ? this.pages.urls.audit(page.next_cursor) : null;
    this.pages.send(response, 200, renderSettings.audit(this.pages.context(request, 'audit'), page, next));
  }

  @Get('admins')
  async admins(@Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    this.pages.send(response, 200, renderSettings.admins(this.pages.context(request, 'admins'), await this.listAdmins.execute()));
  }

  @Get('admins/new')
  newAdminForm(@Req() request: SettingsRequest, @Res() response: Response): void {
    this.pages.send(response, 200, renderSettings.newAdmin(this.pages.context(request, 'admins'), { name: '', email: '' }));
  }

  /** Adds an admin; a password left empty is generated and shown in this answer, once. */
  @Post('admins/new')
  async addAdmin(@Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const form = formOf(request);
    const ctx = this.pages.context(request, 'admins');
    const values = { name: form.text('name').trim(), email: form.text('email').trim() };
    const password = form.text('password');
    try {
      const created = await this.createAdmin.execute({ name: values.name, email: values.email, password: password === '' ? null : password }, this.pages.actor(request));
      this.pages.send(response, 201, renderSettings.adminCreated(ctx, created.admin, created.generatedPassword));
    } catch (error) {
      const errors = error instanceof ConflictError ? [{ id: 'admin-email', message: error.message }] : formErrorsOf(error, ADMIN_FIELDS, 'admin-email');
      this.pages.send(response, error instanceof ConflictError ? 409 : 400, renderSettings.newAdmin(ctx, values, errors));
    }
  }

  @Get('admins/:id/remove')
  async removeConfirm(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    this.pages.send(response, 200, renderSettings.removeAdmin(this.pages.context(request, 'admins'), await this.admin(id)));
  }

  /** Removes an admin and ends their sessions at once; the last admin is refused (409) with the reason. */
  @Post('admins/:id/remove')
  async remove(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const admin = await this.admin(id);
    try {
      await this.removeAdmin.execute(admin.id, this.pages.actor(request));
    } catch (error) {
      if (!(error instanceof LastAdminError)) throw error;
      this.pages.send(response, 409, renderSettings.removeAdmin(this.pages.context(request, 'admins'), admin, [{ id: 'remove-admin', message: error.message }]));
      return;
    }
    if (admin.id === authOf(request).admin.id) {
      // Their own account: this session ended with it.
      this.pages.clearSessionCookie(response);
      this.pages.redirect(response, this.pages.urls.signIn());
      return;
    }
    this.pages.redirect(response, this.pages.urls.admins('admin_removed'));
  }

  @Get('account')
  async account(@Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const { admin, session } = authOf(request);
    const sessions = await this.listSessions.execute(admin.id, session.id);
    this.pages.send(response, 200, renderSettings.account(this.pages.context(request, 'account'), sessions));
  }

  /** Changes the password; the admin's other sessions end, this one stays. */
  @Post('account/password')
  async password(@Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const form = formOf(request);
    const { admin, session } = authOf(request);
    const newPassword = form.text('new_password');
    const refuse = async (errors: Array<{ id: string; message: string }>): Promise<void> => {
      const sessions = await this.listSessions.execute(admin.id, session.id);
      this.pages.send(response, 400, renderSettings.account(this.pages.context(request, 'account'), sessions, errors));
    };
    if (form.text('current_password') === '') return refuse([{ id: 'current-password', message: 'Enter your current password.' }]);
    if (newPassword !== form.text('new_password_again')) return refuse([{ id: 'new-password-again', message: 'The two new passwords are not the same.' }]);
    try {
      await this.changePassword.execute({ adminId: admin.id, currentSessionId: session.id, currentPassword: form.text('current_password'), newPassword }, this.pages.actor(request));
    } catch (error) {
      return refuse([...formErrorsOf(error, PASSWORD_FIELDS, 'new-password')]);
    }
    this.pages.redirect(response, this.pages.urls.account('password_changed'));
  }

  @Post('account/sessions/:id/revoke')
  async revoke(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const { admin, session } = authOf(request);
    await this.revokeSession.execute(admin.id, id, this.pages.actor(request));
    if (id === session.id) {
      this.pages.clearSessionCookie(response);
      this.pages.redirect(response, this.pages.urls.signIn({ notice: 'signed_out' }));
      return;
    }
    this.pages.redirect(response, `${this.pages.urls.account('session_revoked')}#sessions`);
  }

  private async admin(id: string): Promise<AdminView> {
    const admin = (await this.listAdmins.execute()).find((candidate) => candidate.id === id);
    if (!admin) throw new NotFoundError('Admin', id);
    return admin;
  }
}
