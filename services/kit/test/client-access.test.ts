import type { Role } from '@countinghouse/proto';
import { describe, expect, it } from 'vitest';
import { canSeeClient, clientScopeOf, isPracticeSide, type ClientScope, type ClientScopeRule } from '../src/client-access.js';

// Who may see which client (client-access.ts): proto's clientVisibility (decision 141) and the owner of
// a business, under each area's rule.

const ME = 'u-me';
const user = (roles: Role[]) => ({ id: ME, kind: 'user' as const, roles });
const panel = (roles: Role[]) => ({ id: ME, kind: 'admin' as const, roles });

const ALL: ClientScope = { all: true };
const none: ClientScope = { all: false, ownerUserId: null, accountantId: null };
const accountant: ClientScope = { all: false, ownerUserId: null, accountantId: ME };
const owner: ClientScope = { all: false, ownerUserId: ME, accountantId: null };
const ownerAndAccountant: ClientScope = { all: false, ownerUserId: ME, accountantId: ME };

describe('clientScopeOf', () => {
  // [who, decision 141 (default), owner: client (requests), owner: anyone (documents, deadlines, letters, integrations)]
  it.each([
    ['admin', user(['admin']), ALL, ALL, ALL],
    ['manager', user(['manager']), ALL, ALL, ALL],
    ['staff', user(['staff']), ALL, ALL, ALL],
    ['accountant', user(['accountant']), accountant, accountant, ownerAndAccountant],
    ['client', user(['client']), none, owner, owner],
    ['mlro', user(['mlro']), none, none, owner],
    ['no role', user([]), none, none, owner],
    ['accountant and client', user(['accountant', 'client']), accountant, ownerAndAccountant, ownerAndAccountant],
    ['staff and accountant', user(['staff', 'accountant']), ALL, ALL, ALL],
    ['the admin panel', panel(['admin']), ALL, ALL, ALL],
    ['the admin panel, whatever its roles', panel([]), ALL, ALL, ALL],
  ])('%s', (_who, p, byDefault, clientOwner, anyOwner) => {
    expect(clientScopeOf(p)).toEqual(byDefault);
    expect(clientScopeOf(p, { owner: 'none' })).toEqual(byDefault);
    expect(clientScopeOf(p, { owner: 'client' })).toEqual(clientOwner);
    expect(clientScopeOf(p, { owner: 'anyone' })).toEqual(anyOwner);
  });

  // An area's own "see all" permission, and the admin panel counted by its roles alone (the AML files).
  const aml: ClientScopeRule = { seeAll: ['aml.manage'], adminPanel: false };
  const acsp: ClientScopeRule = { seeAll: ['clients.edit', 'aml.manage'] };
  it.each([
    ['admin', user(['admin']), ALL, ALL, ALL],
    ['manager', user(['manager']), ALL, ALL, ALL],
    ['staff', user(['staff']), none, ALL, ALL],
    ['mlro', user(['mlro']), ALL, ALL, none],
    ['accountant', user(['accountant']), accountant, accountant, accountant],
    ['client', user(['client']), none, none, none],
    ['the admin panel with the admin role', panel(['admin']), ALL, ALL, ALL],
    ['the admin panel without roles', panel([]), none, ALL, ALL],
    ['the admin panel with only the accountant role', panel(['accountant']), accountant, ALL, ALL],
  ])('%s under aml.manage / clients.edit or aml.manage / documents.view_all', (_who, p, files, acspRecords, documents) => {
    expect(clientScopeOf(p, aml)).toEqual(files);
    expect(clientScopeOf(p, acsp)).toEqual(acspRecords);
    expect(clientScopeOf(p, { seeAll: ['documents.view_all'] })).toEqual(documents);
  });
});

describe('canSeeClient and isPracticeSide', () => {
  const mine = { userId: ME, assignedAccountantId: null };
  const assignedToMe = { userId: 'u-other', assignedAccountantId: ME };
  const someoneElses = { userId: 'u-other', assignedAccountantId: 'u-colleague' };
  const unassigned = { userId: null, assignedAccountantId: null };

  // [scope, entry, canSeeClient, isPracticeSide]
  it.each([
    ['every client: their own', ALL, mine, true, true],
    ['every client: someone else’s', ALL, someoneElses, true, true],
    ['every client: unassigned', ALL, unassigned, true, true],
    ['accountant: assigned to them', accountant, assignedToMe, true, true],
    ['accountant: not assigned to them', accountant, someoneElses, false, false],
    ['accountant: unassigned', accountant, unassigned, false, false],
    ['accountant: named as the owner only (owner none)', accountant, mine, false, false],
    ['owner: their business', owner, mine, true, false],
    ['owner: someone else’s', owner, someoneElses, false, false],
    ['owner: no user on the entry', owner, unassigned, false, false],
    ['owner and accountant: their business', ownerAndAccountant, mine, true, false],
    ['owner and accountant: assigned to them', ownerAndAccountant, assignedToMe, true, true],
    ['none: anything', none, unassigned, false, false],
    ['none: someone else’s', none, someoneElses, false, false],
  ] as const)('%s', (_case, scope, entry, sees, practiceSide) => {
    expect(canSeeClient(scope, entry)).toBe(sees);
    expect(isPracticeSide(scope, entry)).toBe(practiceSide);
  });
});
