import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (m=19456 KiB, t=2, p=1: OWASP's minimum), about 19 ms here.
export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// A real hash of a random string, so a login for an unknown name costs the same as a wrong password.
let dummy: Promise<string> | null = null;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummy ??= hash(`no-such-user-${Math.random()}`);
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
