/**
 * Data every installation needs (roles, countries, the first admin) and, when DEMO_DATA is on,
 * a few demo sponsors on the first start only. Safe to run at every start.
 */
import { eq, sql } from 'drizzle-orm';
import { ROLE_NAMES } from '@core/model/user';
import type { Db } from './db/open';
import { appSettings, countries, roles, sponsors, userRoles, users } from './db/schema';
import { countries as countryList } from './db/countries';
import { hashPassword, randomPassword } from './auth/passwords';
import { seedDemoRun } from './demo';
import type { PhiCipher } from './security/phi';

export interface SeedOptions {
  adminUsername: string;
  adminPassword: string | null;
  demoData: boolean;
  /** Seals the demo's fictional contacts: without it the demo has no referrals. */
  phi?: PhiCipher;
}

export interface SeedResult {
  /** Set when the admin was created with a generated password, to print once. */
  generatedAdminPassword: string | null;
  adminCreated: boolean;
  demoSeeded: boolean;
}

const DEMO_SPONSORS = [
  { name: 'Northwind Therapeutics', identification: 'NWT', iso: 'US', description: 'Oncology and rare-disease studies.' },
  { name: 'Helix BioPharma', identification: 'HLX', iso: 'GB', description: 'Neurology programmes in phase II and III.' },
  { name: 'Meridian Clinical', identification: 'MRD', iso: 'DE', description: 'Cardiology outcome trials.' },
  { name: 'Aurora Health Research', identification: 'AUR', iso: 'CA', description: 'Dermatology and immunology.' },
  { name: 'Solstice Pharma', identification: 'SOL', iso: 'MX', description: 'Vaccines; inactive since 2025.', isActive: false },
];

export async function seed(db: Db, options: SeedOptions): Promise<SeedResult> {
  await db
    .insert(roles)
    .values(ROLE_NAMES.map((name) => ({ name })))
    .onConflictDoNothing();
  await db
    .insert(countries)
    .values(countryList.map(([isoCode, name]) => ({ isoCode, name })))
    .onConflictDoNothing();

  let generatedAdminPassword: string | null = null;
  let adminCreated = false;
  const [anyUser] = await db.select({ id: users.id }).from(users).limit(1);
  if (!anyUser) {
    const password = options.adminPassword ?? randomPassword();
    if (!options.adminPassword) generatedAdminPassword = password;
    const [admin] = await db
      .insert(users)
      .values({ username: options.adminUsername, passwordHash: await hashPassword(password), isActive: true })
      .returning({ id: users.id });
    const adminRoles = await db.select().from(roles).where(sql`${roles.name} in ('Admin', 'Super User')`);
    if (admin) await db.insert(userRoles).values(adminRoles.map((r) => ({ userId: admin.id, roleId: r.id })));
    adminCreated = true;
  }

  let demoSeeded = false;
  if (options.demoData) {
    // Seeded once per installation: staff deleting the demo rows must not see them come back.
    const [marker] = await db.select().from(appSettings).where(eq(appSettings.key, 'demo_seeded'));
    if (!marker) {
      const byIso = new Map((await db.select().from(countries)).map((c) => [c.isoCode, c.id]));
      await db
        .insert(sponsors)
        .values(
          DEMO_SPONSORS.map((s) => ({
            name: s.name,
            identification: s.identification,
            description: s.description,
            isActive: s.isActive ?? true,
            countryId: byIso.get(s.iso) ?? null,
          })),
        )
        .onConflictDoNothing();
      await seedDemoRun(db, new Date(), options.phi);
      await db.insert(appSettings).values({ key: 'demo_seeded', value: new Date().toISOString() });
      demoSeeded = true;
    }
  }
  return { generatedAdminPassword, adminCreated, demoSeeded };
}
