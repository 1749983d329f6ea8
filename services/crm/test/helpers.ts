import { makeEnvelope } from '@countinghouse/kit';
import { TOPICS } from '@countinghouse/proto';
import type { TestGateway } from '../../../gateway/test/helpers.js';

export { bearer, login, makePerson, startTestGateway, type Person, type TestGateway } from '../../../gateway/test/helpers.js';

/** Deliver identity.role_changed as identity would (through the bus), so crm's read model learns of a team member. */
export async function announceRole(gw: TestGateway, userId: string, role: string, isActive = true, name = `Person ${role}`) {
  const envelope = makeEnvelope(
    'identity.role_changed',
    { userId, role, isActive, email: `${role}.${userId.slice(0, 6)}@practice.co.uk`, name },
    { kind: 'system', id: null },
  );
  await gw.kit.runtime.bus.publish(TOPICS.identity, [{ key: userId, envelope }]);
  return envelope;
}
