/** A participant's whole run against a real server process, as the delivery tests make them. */
import { expect } from 'vitest';
import { leaveContact, runQualified, type ParticipantFixture } from '../support/participantFixture';
import { participantOf, type RunningServer } from './server';

/** Runs the fixture's survey qualified on `server` and leaves a contact of `email` (taken: a 201). */
export async function leaveQualifiedContact(server: RunningServer, fixture: ParticipantFixture, email: string) {
  const on = participantOf(server);
  const res = await leaveContact(on, fixture, await runQualified(on, fixture), { first_name: 'Lee', email, phone: '212-555-0111' });
  expect(res.status, await res.text()).toBe(201);
}
