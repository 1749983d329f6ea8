import { AppError, type Db, type Principal } from '@countinghouse/kit';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { SecondFactorUse } from '@countinghouse/proto';
import { findUserById } from '../db/queries.js';
import { secondFactorUse } from '../domain/second-factor-use.js';
import {
  deletePasskey,
  insertPasskey,
  markPasskeyUsed,
  passkeyByCredential,
  passkeysOf,
  putChallenge,
  takeChallenge,
} from '../db/two-factor.js';

/**
 * Passkeys (WebAuthn, issue 32) with @simplewebauthn/server: a person registers one while signed in,
 * then signs in with it instead of a password. User verification is required (the device's PIN or
 * biometric), so a passkey sign-in is two factors in one gesture: something held (the device's key)
 * and something known or been (what unlocks it). Challenges live in the database, single use, five
 * minutes, so any identity replica can finish what another started.
 */

export const PASSKEY_MESSAGES = {
  failed: 'That passkey could not be checked. Try again, or sign in with your password.',
  unknown: 'This passkey is not registered here. Sign in with your password, then add it on Account security.',
  expired: 'That took too long. Please try again.',
  notFound: 'No such passkey.',
  useIt: 'This account signs in with a passkey: use “Sign in with a passkey”.',
} as const;

/** Who the passkeys belong to: the site people use (PUBLIC_URL). */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/**
 * The relying party from the public URL. WebAuthn refuses an IP address as its id, so on a loopback
 * address (development and tests, PUBLIC_URL http://127.0.0.1:port) it is `localhost` on the same port.
 */
export function relyingParty(publicUrl: string, name: string): RelyingParty {
  const url = new URL(publicUrl);
  const host = url.hostname;
  if (host === '127.0.0.1' || host === '[::1]' || host === '::1') {
    const local = new URL(publicUrl);
    local.hostname = 'localhost';
    return { id: 'localhost', name, origins: [local.origin, url.origin] };
  }
  return { id: host, name, origins: [url.origin] };
}

/** The browser's answer as the route takes it (its schema bounds the id; the library checks the rest). */
export type BrowserAnswer = { id: string } & Record<string, unknown>;

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
/** Any object's fields can be read by name (as unknowns). */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const partsOf = (a: BrowserAnswer) => (isRecord(a.response) ? a.response : {});

/** The answer's shape checked before the library checks its content (a malformed one is a 400, not a 500). */
function registrationAnswer(a: BrowserAnswer): RegistrationResponseJSON {
  const r = partsOf(a);
  if (!isText(a.rawId) || a.type !== 'public-key' || !isText(r.clientDataJSON) || !isText(r.attestationObject))
    throw new AppError('VALIDATION_FAILED', PASSKEY_MESSAGES.failed);
  const transports = Array.isArray(r.transports) ? r.transports.filter(isText) : undefined;
  return {
    id: a.id,
    rawId: a.rawId,
    type: 'public-key',
    response: { clientDataJSON: r.clientDataJSON, attestationObject: r.attestationObject, ...(transports ? { transports } : {}) },
    clientExtensionResults: {},
  };
}

function authenticationAnswer(a: BrowserAnswer): AuthenticationResponseJSON {
  const r = partsOf(a);
  if (!isText(a.rawId) || a.type !== 'public-key' || !isText(r.clientDataJSON) || !isText(r.authenticatorData) || !isText(r.signature))
    throw new AppError('VALIDATION_FAILED', PASSKEY_MESSAGES.failed);
  return {
    id: a.id,
    rawId: a.rawId,
    type: 'public-key',
    response: {
      clientDataJSON: r.clientDataJSON,
      authenticatorData: r.authenticatorData,
      signature: r.signature,
      ...(isText(r.userHandle) ? { userHandle: r.userHandle } : {}),
    },
    clientExtensionResults: {},
  };
}

export interface PasskeyDeps {
  db: Db;
  rp: () => RelyingParty;
}

export async function listPasskeys(deps: PasskeyDeps, p: Principal) {
  const rows = await passkeysOf(deps.db, p.id);
  return {
    passkeys: rows.map((r) => ({
      id: r.id,
      name: r.name,
      created_at: r.createdAt.toISOString(),
      last_used_at: r.lastUsedAt?.toISOString() ?? null,
    })),
  };
}

/** Options for the browser's navigator.credentials.create(), with the challenge's id. */
export async function passkeyRegistrationOptions(deps: PasskeyDeps, p: Principal) {
  if (p.kind !== 'user') throw new AppError('FORBIDDEN', 'Passkeys are for people’s accounts.');
  const user = await findUserById(deps.db, p.id);
  if (!user) throw new AppError('SESSION_EXPIRED', 'Your session has expired. Please sign in again.');
  const rp = deps.rp();
  const existing = await passkeysOf(deps.db, p.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((k) => ({ id: k.credentialId, transports: k.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const challengeId = await putChallenge(deps.db, { userId: p.id, purpose: 'register', challenge: options.challenge });
  return { challenge_id: challengeId, options };
}

/** Check the browser's answer and keep the passkey's public key. */
export async function registerPasskey(
  deps: PasskeyDeps,
  p: Principal,
  input: { challenge_id: string; response: BrowserAnswer; name?: string },
) {
  const challenge = await takeChallenge(deps.db, { id: input.challenge_id, purpose: 'register', userId: p.id });
  if (!challenge) throw new AppError('VALIDATION_FAILED', PASSKEY_MESSAGES.expired);
  const rp = deps.rp();
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: registrationAnswer(input.response),
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw new AppError('VALIDATION_FAILED', PASSKEY_MESSAGES.failed);
  }
  if (!verified.verified) throw new AppError('VALIDATION_FAILED', PASSKEY_MESSAGES.failed);
  const c = verified.registrationInfo.credential;
  if (await passkeyByCredential(deps.db, c.id)) throw new AppError('CONFLICT', 'This passkey is already registered.');
  await insertPasskey(deps.db, {
    userId: p.id,
    credentialId: c.id,
    publicKey: Buffer.from(c.publicKey).toString('base64url'),
    counter: c.counter,
    transports: c.transports ?? [],
    name: input.name?.trim() || 'Passkey',
  });
  return listPasskeys(deps, p);
}

export async function removePasskey(deps: PasskeyDeps, p: Principal, id: string) {
  if (!(await deletePasskey(deps.db, p.id, id))) throw new AppError('NOT_FOUND', PASSKEY_MESSAGES.notFound);
}

/** Options for navigator.credentials.get(): any passkey of this site (the device offers its own). */
export async function passkeySignInOptions(deps: PasskeyDeps) {
  const rp = deps.rp();
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required' });
  const challengeId = await putChallenge(deps.db, { userId: null, purpose: 'sign-in', challenge: options.challenge });
  return { challenge_id: challengeId, options };
}

/** The person whose passkey signed the challenge (with user verification), or null. */
export async function verifyPasskeySignIn(
  deps: PasskeyDeps,
  input: { challenge_id: string; response: BrowserAnswer },
): Promise<{ id: string; secondFactor: SecondFactorUse } | null> {
  const challenge = await takeChallenge(deps.db, { id: input.challenge_id, purpose: 'sign-in', userId: null });
  if (!challenge) throw new AppError('VALIDATION_FAILED', PASSKEY_MESSAGES.expired);
  const key = await passkeyByCredential(deps.db, input.response.id);
  if (!key) return null;
  const rp = deps.rp();
  try {
    const v = await verifyAuthenticationResponse({
      response: authenticationAnswer(input.response),
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: key.credentialId,
        publicKey: Buffer.from(key.publicKey, 'base64url'),
        counter: key.counter,
        transports: key.transports,
      },
      requireUserVerification: true,
    });
    if (!v.verified) return null;
    await markPasskeyUsed(deps.db, key.id, v.authenticationInfo.newCounter);
    return { id: key.userId, secondFactor: secondFactorUse('passkey', key.credentialId) };
  } catch {
    return null;
  }
}
