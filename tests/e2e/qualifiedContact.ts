/** A participant's whole run against a real server process, as the delivery tests make them. */
import { expect } from 'vitest';
import { runQualified, TOKEN_HEADER, type ParticipantFixture } from '../support/participantFixture';
import { participantOf, type RunningServer } from './server';

/** Runs the fixture's survey qualified on `server` and leaves a contact of `email` (taken: a 201). */
export async function leaveQualifiedContact(server: RunningServer, fixture: ParticipantFixture, email: string) {
  const on = participantOf(server);
  const { submissionId, token } = await runQualified(on, fixture);
  const res = await on.request('POST', `/api/o-forms/o-form-submission-contact/${submissionId}`, {
    headers: { [TOKEN_HEADER]: token },
    body: {
      data: {
        attributes: {
          engagementSiteLocationId: fixture.engagementSiteLocationId,
          values: { first_name: 'Lee', email, phone: '212-555-0111' },
          acceptTerms: true,
        },
      },
    },
  });
  expect(res.status, await res.text()).toBe(201);
}
