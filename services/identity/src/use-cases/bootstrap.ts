import type { Db } from '@countinghouse/kit';
import { adminUsers } from '../db/schema.js';
import { countAdmins } from '../db/queries.js';
import { generatePassword, USERNAME_PATTERN } from '../domain/admin-users.js';
import { hashPassword, passwordProblem } from '../adapters/passwords.js';

export interface InitialAdmin {
  username: string;
  /** When absent, a password is generated and returned so the launcher can print it once. */
  password?: string;
}

/** Create the first administrator when there is none. Returns the generated password, if one was made. */
export async function ensureInitialAdmin(db: Db, initial: InitialAdmin): Promise<{ created: boolean; generatedPassword?: string }> {
  if ((await countAdmins(db)) > 0) return { created: false };
  if (!USERNAME_PATTERN.test(initial.username)) throw new Error(`ADMIN_USERNAME must be 3-100 letters, digits or . _ @ -`);
  const problem = initial.password === undefined ? null : passwordProblem(initial.password);
  if (problem) throw new Error(`ADMIN_PASSWORD: ${problem}`);
  const password = initial.password ?? generatePassword();
  const inserted = await db
    .insert(adminUsers)
    .values({ username: initial.username, passwordHash: await hashPassword(password), role: 'admin' })
    .onConflictDoNothing()
    .returning({ id: adminUsers.id });
  if (inserted.length === 0) return { created: false }; // another replica won the race
  return { created: true, generatedPassword: initial.password === undefined ? password : undefined };
}
