import { isId, NotFoundError } from '#core/domain';
import type { Admin } from '../domain/admin.js';
import type { AdminRepository } from './admin.repository.js';

/** An admin by `adm_…` ID or by email (any case); NotFoundError naming `ref` otherwise. */
export async function findAdminByRef(admins: AdminRepository, ref: string): Promise<Admin> {
  const value = ref.trim();
  const admin = isId(value, 'adm') ? await admins.find(value) : await admins.findByEmail(value.toLowerCase());
  if (!admin) throw new NotFoundError('Admin', value);
  return admin;
}
