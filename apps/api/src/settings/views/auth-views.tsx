import type { SettingsContext } from './context.js';
import { Layout } from './layout.js';
import { CsrfField, ErrorSummary, type FormErrors, Input } from './parts.js';

/** The password rules, said before they are enforced. */
export const PASSWORD_HINT = 'At least 12 characters. Not one of the most common passwords, and not your email address. A passphrase of a few unrelated words works well.';

export interface SetupValues {
  readonly name: string;
  readonly email: string;
}

/** The first admin, from the one-time link printed at the first start. */
export function SetupView({ ctx, token, values, errors }: { ctx: SettingsContext; token: string; values: SetupValues; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title={errors?.length ? 'Error: Create the first admin' : 'Create the first admin'}>
      <div class="auth-box">
        <h1>Create the first admin</h1>
        <p class="lead">This link works once. The admin you create signs in here to manage API keys, webhooks and other admins.</p>
        <ErrorSummary errors={errors} />
        <form method="post" action={ctx.urls.setup()} novalidate>
          <CsrfField ctx={ctx} />
          <input type="hidden" name="token" value={token} />
          <Input id="setup-name" name="name" label="Your name" value={values.name} errors={errors} required maxLength={200} autocomplete="name" />
          <Input id="setup-email" name="email" type="email" label="Email" value={values.email} errors={errors} required maxLength={320} autocomplete="username" spellcheck={false} />
          <Input id="setup-password" name="password" type="password" label="Password" hint={PASSWORD_HINT} errors={errors} required minLength={12} maxLength={256} autocomplete="new-password" />
          <Input id="setup-password-again" name="password_again" type="password" label="Password again" errors={errors} required maxLength={256} autocomplete="new-password" />
          <div class="buttons">
            <button type="submit" class="button primary">
              Create admin and sign in
            </button>
          </div>
        </form>
      </div>
    </Layout>
  );
}

/** A setup link that can't be used (unknown, used, expired, or an admin exists already). */
export function SetupUnavailableView({ ctx }: { ctx: SettingsContext }) {
  return (
    <Layout ctx={ctx} title="Setup link not valid">
      <div class="auth-box">
        <h1>This setup link can't be used</h1>
        <p>It was used already, it expired (links are valid for 24 hours), or an admin exists already.</p>
        <ul>
          <li>
            If you have an account, <a href={ctx.urls.signIn()}>sign in</a>.
          </li>
          <li>
            Otherwise ask an admin to add you, or create an admin on the server: <code>npm run cli -- admins create --email you@example.com --name "Your name"</code>.
          </li>
          <li>Restarting the service prints a new setup link while there is no admin.</li>
        </ul>
      </div>
    </Layout>
  );
}

export function SignInView({ ctx, next, email, errors }: { ctx: SettingsContext; next: string | undefined; email: string; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title={errors?.length ? 'Error: Sign in' : 'Sign in'}>
      <div class="auth-box">
        <h1>Sign in</h1>
        <p class="lead">Developer settings of the help center: API keys, webhooks and admins.</p>
        <ErrorSummary errors={errors} />
        <form method="post" action={ctx.urls.signIn()} novalidate>
          <CsrfField ctx={ctx} />
          {next ? <input type="hidden" name="next" value={next} /> : null}
          <Input id="sign-in-email" name="email" type="email" label="Email" value={email} errors={errors} required maxLength={320} autocomplete="username" spellcheck={false} />
          <Input id="sign-in-password" name="password" type="password" label="Password" errors={errors} required maxLength={256} autocomplete="current-password" />
          <div class="buttons">
            <button type="submit" class="button primary">
              Sign in
            </button>
          </div>
        </form>
        <p class="hint">Forgot your password? Ask another admin to remove and add you again, or reset it on the server: <code>npm run cli -- admins reset-password you@example.com</code>.</p>
      </div>
    </Layout>
  );
}
