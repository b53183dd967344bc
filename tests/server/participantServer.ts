/**
 * The setup the participant API tests share: one harness with one participant fixture for the
 * file's tests, made before them and closed after them — once the record-system deliveries their
 * runs queued have settled, so that none writes into a closed database.
 */
import { afterAll, beforeAll } from 'vitest';
import { settleDeliveries } from '../../server/rms/worker';
import { createParticipantFixture, type ParticipantFixture } from '../support/participantFixture';
import { createHarness, type Harness } from './harness';

export interface ParticipantServer {
  h: Harness;
  f: ParticipantFixture;
}

/** `take` hands the harness and the fixture to the file's own variables once they are made. */
export function useParticipantServer(take: (server: ParticipantServer) => void): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await createHarness();
    take({ h, f: await createParticipantFixture(h.db) });
  });
  afterAll(async () => {
    await settleDeliveries();
    await h?.close();
  });
}
