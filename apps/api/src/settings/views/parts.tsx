import type { ComponentChildren } from 'preact';
import type { SettingsContext } from './context.js';

/** A problem with one form control: its message and the id of the control the error summary links to. */
export interface FieldError {
  readonly id: string;
  readonly message: string;
}

export type FormErrors = readonly FieldError[];

export function errorFor(errors: FormErrors | undefined, id: string): string | undefined {
  return errors?.find((error) => error.id === id)?.message;
}

/** The problems of a refused form, each a link to its control; the page's script moves focus here. */
export function ErrorSummary({ errors }: { errors: FormErrors | undefined }) {
  if (!errors || errors.length === 0) return null;
  return (
    <div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex={-1} data-error-summary>
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {errors.map((error) => (
          <li>
            <a href={`#${error.id}`}>{error.message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The hidden CSRF field every form carries. */
export function CsrfField({ ctx }: { ctx: SettingsContext }) {
  return <input type="hidden" name="_csrf" value={ctx.csrfToken} />;
}

/** A form of one button (an action on a resource), with its CSRF field. */
export function PostButton({ ctx, action, label, variant = 'secondary', describedBy }: { ctx: SettingsContext; action: string; label: string; variant?: 'primary' | 'secondary' | 'danger'; describedBy?: string }) {
  return (
    <form method="post" action={action} class="inline-form">
      <CsrfField ctx={ctx} />
      <button type="submit" class={`button ${variant}`} aria-describedby={describedBy}>
        {label}
      </button>
    </form>
  );
}

function describedBy(...ids: Array<string | undefined | false>): string | undefined {
  const list = ids.filter((id): id is string => typeof id === 'string');
  return list.length > 0 ? list.join(' ') : undefined;
}

export interface InputProps {
  readonly id: string;
  readonly name: string;
  readonly label: string;
  readonly hint?: ComponentChildren;
  readonly value?: string;
  readonly errors?: FormErrors;
  readonly type?: 'text' | 'email' | 'password' | 'url' | 'date';
  readonly autocomplete?: string;
  readonly required?: boolean;
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly min?: string;
  readonly spellcheck?: boolean;
}

/** What a control needs to be tied to its field's hint and error. */
interface ControlAria {
  readonly 'aria-invalid': 'true' | undefined;
  readonly 'aria-describedby': string | undefined;
}

/** A field's frame: its label, hint and error (both tied to the control by aria-describedby), then the control. */
function Field(props: { id: string; label: string; hint?: ComponentChildren; errors?: FormErrors; control: (aria: ControlAria) => ComponentChildren }) {
  const error = errorFor(props.errors, props.id);
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  const errorId = error ? `${props.id}-error` : undefined;
  return (
    <div class={error ? 'field has-error' : 'field'}>
      <label for={props.id}>{props.label}</label>
      {props.hint ? (
        <span class="hint" id={hintId}>
          {props.hint}
        </span>
      ) : null}
      {error ? (
        <span class="field-error" id={errorId}>
          <span class="visually-hidden">Error: </span>
          {error}
        </span>
      ) : null}
      {props.control({ 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': describedBy(hintId, errorId) })}
    </div>
  );
}

/** A labelled input with its hint and error, both tied to it by aria-describedby. */
export function Input(props: InputProps) {
  return (
    <Field
      {...props}
      control={(aria) => (
        <input
          id={props.id}
          name={props.name}
          // preact's input types are a union keyed on `type`; every type used here takes the attributes below.
          type={(props.type ?? 'text') as 'text'}
          value={props.type === 'password' ? undefined : props.value}
          autocomplete={props.autocomplete}
          required={props.required}
          maxLength={props.maxLength}
          minLength={props.minLength}
          min={props.min}
          spellcheck={props.spellcheck}
          {...aria}
        />
      )}
    />
  );
}

export interface TextareaProps {
  readonly id: string;
  readonly name: string;
  readonly label: string;
  readonly hint?: ComponentChildren;
  readonly value?: string;
  readonly errors?: FormErrors;
  readonly maxLength?: number;
}

export function Textarea(props: TextareaProps) {
  return (
    <Field
      {...props}
      control={(aria) => (
        <textarea id={props.id} name={props.name} rows={3} maxLength={props.maxLength} {...aria}>
          {props.value ?? ''}
        </textarea>
      )}
    />
  );
}

export interface CheckboxOption {
  readonly value: string;
  readonly label: ComponentChildren;
  readonly hint?: ComponentChildren;
}

/**
 * A group of checkboxes in a fieldset whose legend names it; the group's hint and error are tied to the fieldset,
 * each box's own hint to the box. The error summary links to the first box.
 */
export function CheckboxGroup({
  id,
  name,
  legend,
  hint,
  options,
  checked,
  errors,
}: {
  id: string;
  name: string;
  legend: string;
  hint?: ComponentChildren;
  options: readonly CheckboxOption[];
  checked: readonly string[];
  errors?: FormErrors;
}) {
  const error = errorFor(errors, id);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset class={error ? 'field has-error' : 'field'} aria-describedby={describedBy(hintId, errorId)}>
      <legend>{legend}</legend>
      {hint ? (
        <div class="hint" id={hintId}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <span class="field-error" id={errorId}>
          <span class="visually-hidden">Error: </span>
          {error}
        </span>
      ) : null}
      <ul class="checks">
        {options.map((option, index) => {
          const boxId = index === 0 ? id : `${id}-${index}`;
          const boxHint = option.hint ? `${boxId}-hint` : undefined;
          return (
            <li class="check">
              <input type="checkbox" id={boxId} name={name} value={option.value} checked={checked.includes(option.value)} aria-describedby={boxHint} />
              <span>
                <label for={boxId}>{option.label}</label>
                {option.hint ? (
                  <span class="hint" id={boxHint}>
                    {option.hint}
                  </span>
                ) : null}
              </span>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/**
 * `2026-05-04 13:45 UTC` in a <time> with the exact instant; a dash for none. A narrow column may wrap it between
 * the day and the time, never inside either.
 */
export function Time({ value, empty = '—' }: { value: Date | string | null | undefined; empty?: string }) {
  if (value === null || value === undefined) return <span class="muted">{empty}</span>;
  const date = typeof value === 'string' ? new Date(value) : value;
  const text = formatTime(date);
  const space = text.indexOf(' ');
  return (
    <time datetime={date.toISOString()}>
      <span class="nowrap">{text.slice(0, space)}</span> <span class="nowrap">{text.slice(space + 1)}</span>
    </time>
  );
}

export function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A small status label whose text says the state (colour only repeats it). */
export function Badge({ tone, children }: { tone: 'ok' | 'warn' | 'bad' | 'muted'; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}

/**
 * A table that scrolls sideways inside its own box on a narrow screen: a focusable, labelled region, so the keyboard
 * can scroll it too.
 */
/** A list page's heading with its one primary action beside it (Add…, Create…). */
export function PageHead({ title, action }: { title: string; action: { href: string; label: string } }) {
  return (
    <div class="page-head">
      <h1>{title}</h1>
      <a class="button primary" href={action.href}>
        {action.label}
      </a>
    </div>
  );
}

/** `1 key`, `3 keys`: a table caption's count. */
export function countOf(count: number, one: string, other: string): string {
  return `${count} ${count === 1 ? one : other}`;
}

/** The header of a table's last column, which holds each row's actions (named for screen readers only). */
export function ActionsHeader() {
  return (
    <th scope="col">
      <span class="visually-hidden">Actions</span>
    </th>
  );
}

export function DataTable({ caption, id, children }: { caption: string; id: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-labelledby={`${id}-caption`} tabindex={0}>
      <table class="data" id={id}>
        <caption id={`${id}-caption`}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/**
 * A secret shown once: a read-only field to select and copy by hand (no JavaScript needed), and a copy button the
 * script reveals and wires to the clipboard.
 */
export function SecretField({ id, label, value, hint }: { id: string; label: string; value: string; hint: ComponentChildren }) {
  return (
    <div class="secret field">
      <label for={id}>{label}</label>
      <span class="hint" id={`${id}-hint`}>
        {hint}
      </span>
      <div class="secret-row">
        <input id={id} type="text" readonly value={value} class="mono" autocomplete="off" spellcheck={false} aria-describedby={`${id}-hint`} data-select-on-focus />
        <button type="button" class="button primary" data-copy={id} hidden>
          Copy
        </button>
      </div>
      <p class="copy-status" role="status" data-copy-status={id}></p>
    </div>
  );
}
