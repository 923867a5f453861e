/** The developer settings' paths, under PUBLIC_URL's own path (`/settings/…`, or `/help/settings/…` behind a prefix). */
export class SettingsUrls {
  /** PUBLIC_URL's path without its trailing slash ('' at the root). */
  readonly base: string;
  /** `<base>/settings`: the cookies' Path and the prefix every settings URL starts with. */
  readonly root: string;

  constructor(
    /** PUBLIC_URL without a trailing slash. */
    readonly publicUrl: string,
  ) {
    this.base = new URL(publicUrl).pathname.replace(/\/+$/, '');
    this.root = `${this.base}/settings`;
  }

  private at(path: string, query: Record<string, string | null | undefined> = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
    const search = params.toString();
    return `${this.root}${path}${search ? `?${search}` : ''}`;
  }

  keys(notice?: string): string {
    return this.at('/keys', { notice });
  }
  newKey(): string {
    return this.at('/keys/new');
  }
  revokeKey(id: string): string {
    return this.at(`/keys/${encodeURIComponent(id)}/revoke`);
  }

  webhooks(notice?: string): string {
    return this.at('/webhooks', { notice });
  }
  newWebhook(): string {
    return this.at('/webhooks/new');
  }
  webhook(id: string, query: { notice?: string; cursor?: string } = {}): string {
    return this.at(`/webhooks/${encodeURIComponent(id)}`, query);
  }
  editWebhook(id: string): string {
    return this.at(`/webhooks/${encodeURIComponent(id)}/edit`);
  }
  webhookAction(id: string, action: 'enable' | 'disable' | 'rotate' | 'test' | 'delete'): string {
    return this.at(`/webhooks/${encodeURIComponent(id)}/${action}`);
  }
  delivery(id: string, deliveryId: string, notice?: string): string {
    return this.at(`/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}`, { notice });
  }
  retryDelivery(id: string, deliveryId: string): string {
    return `${this.delivery(id, deliveryId)}/retry`;
  }

  audit(cursor?: string): string {
    return this.at('/audit', { cursor });
  }

  admins(notice?: string): string {
    return this.at('/admins', { notice });
  }
  newAdmin(): string {
    return this.at('/admins/new');
  }
  removeAdmin(id: string): string {
    return this.at(`/admins/${encodeURIComponent(id)}/remove`);
  }

  account(notice?: string): string {
    return this.at('/account', { notice });
  }
  changePassword(): string {
    return this.at('/account/password');
  }
  revokeSession(id: string): string {
    return this.at(`/account/sessions/${encodeURIComponent(id)}/revoke`);
  }

  setup(): string {
    return this.at('/setup');
  }
  signIn(query: { next?: string; notice?: string } = {}): string {
    return this.at('/sign-in', query);
  }
  signOut(): string {
    return this.at('/sign-out');
  }

  /** The settings' own stylesheet and script. */
  asset(name: string): string {
    return this.at(`/assets/${name}`);
  }
  /** The public help center's assets (its stylesheet and theme), which the settings pages share. */
  siteAsset(name: string): string {
    return `${this.base}/assets/${name}`;
  }

  /**
   * Where to go after signing in: `next` when it is a settings page of this site (a path under `<base>/settings`,
   * not the sign-in or setup page; no `//`, backslash, white space, dot segment or encoded slash or dot), else the
   * keys page. An open redirect is never possible.
   */
  afterSignIn(next: string | undefined): string {
    if (next === undefined || next.length > 2000) return this.keys();
    if (!next.startsWith(`${this.root}/`) && next !== this.root) return this.keys();
    const path = next.split('?')[0]!;
    if (/[\\\s#]|\/\/|%2f|%5c|%2e|\/\.\.?(\/|$)/i.test(path.slice(this.root.length))) return this.keys();
    if (/[\\\s#]/.test(next)) return this.keys();
    if (path === this.signIn() || path === this.setup() || path === this.signOut()) return this.keys();
    return next;
  }
}
