import { UPGRADE_TRANSITIONS, type UpgradeStatus } from '@countinghouse/proto';

export function canMoveUpgrade(from: UpgradeStatus, to: UpgradeStatus): boolean {
  return from === to || UPGRADE_TRANSITIONS[from].includes(to);
}

export function upgradeTransitionMessage(from: UpgradeStatus, to: UpgradeStatus): string {
  return `An upgrade that is ${from} cannot become ${to}.`;
}

export const UPGRADE_MESSAGES = {
  notFound: 'Upgrade not found',
  samePackage: 'The client is already on this package.',
  inProgress: 'This client already has an upgrade request in progress.',
} as const;
