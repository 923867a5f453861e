import { ValidationError } from '#core/domain';

const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

function isLanguageCode(value: string): boolean {
  return LANGUAGE_CODE.test(value);
}

export function assertLanguageCode(value: string, field = 'language'): void {
  if (!isLanguageCode(value)) throw ValidationError.field(field, `"${value}" is not a language code such as en or pt-BR`);
}
