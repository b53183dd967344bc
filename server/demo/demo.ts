/**
 * The demo participant run (issue 8): a sponsor's engagement with three New York–area sites, a
 * screener with styles and messages in English and Spanish, an approved three-page survey with a
 * disqualifying answer and a jump, contact fields, and an active media channel that /demo/
 * embeds. Seeded with the demo sponsors, once per installation.
 */
import { seedDemoHistory } from './demoHistory';
import { seedDemoFunnel } from './demoFunnel';
import type { PhiCipher } from '../security/phi';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/open';
import {
  appSettings,
  contactFieldScreeners,
  contactFields,
  engagementMessageSettings,
  engagementScreeners,
  engagementSiteLocations,
  engagements,
  languages,
  mediaChannelSurveys,
  mediaChannels,
  oFormContainers,
  oFormFields,
  oFormLanguages,
  oForms,
  screenerLanguages,
  screenerMessages,
  screenerSurveys,
  screeners,
  siteLocations,
  roles,
  sponsors,
  userRoles,
  userSiteLocations,
  users,
} from '../db/schema';
import { MESSAGE_KINDS } from '@core/model/message';
import { SITE_COORDINATOR } from '@core/model/user';

/** Where /demo/ finds its channel: `{"mediaChannelId":1,"screenerId":1}`. */
export const DEMO_CHANNEL_SETTING = 'demo_channel';
export const DEMO_SURVEY_IDENTITY = 'demo-heart-health';
export const DEMO_ENGAGEMENT = 'DEMO-HEART';
export const DEMO_COORDINATOR = 'demo.coordinator';
export const DEMO_COORDINATOR_EMAIL = 'coordinator@midtown-heart.example';

const opt = (value: string, label: string, es: string, extra: Record<string, unknown> = {}) => ({
  label,
  value,
  translations: { es },
  isDisqualified: false,
  transition: null,
  ...extra,
});
const cfg = (es: string, extra: Record<string, unknown> = {}) => ({
  required: true,
  helperText: null,
  translations: { es: { title: es } },
  options: [],
  ...extra,
});

/** Three pages: the first disqualifies under-18s and jumps past the second for those never diagnosed. */
const PAGES = [
  {
    identity: 'demo-about-you',
    title: 'About you',
    translations: { es: { title: 'Sobre usted' } },
    fields: [
      {
        identity: 'demo-age',
        title: 'How old are you?',
        type: 'single',
        configuration: cfg('¿Qué edad tiene?', {
          options: [
            opt('under-18', 'Under 18', 'Menos de 18', { isDisqualified: true }),
            opt('18-64', '18 to 64', 'De 18 a 64'),
            opt('65-plus', '65 or older', '65 o más'),
          ],
        }),
      },
      {
        identity: 'demo-diagnosed',
        title: 'Has a doctor ever told you that you have high blood pressure?',
        type: 'yes_no',
        configuration: cfg('¿Algún médico le ha dicho que tiene la presión arterial alta?', {
          options: [
            opt('yes', 'Yes', 'Sí'),
            // Never diagnosed: nothing to ask about treatment, straight to the last page.
            opt('no', 'No', 'No', { transition: { to: 'page', identity: 'demo-where' } }),
          ],
        }),
      },
    ],
  },
  {
    identity: 'demo-heart',
    title: 'Your heart health',
    translations: { es: { title: 'La salud de su corazón' } },
    fields: [
      {
        identity: 'demo-treatment',
        title: 'Which treatments do you take today?',
        type: 'multiple',
        configuration: cfg('¿Qué tratamientos toma actualmente?', {
          required: false,
          options: [
            opt('pills', 'Blood pressure pills', 'Pastillas para la presión'),
            opt('diet', 'A special diet', 'Una dieta especial'),
            opt('none', 'None', 'Ninguno'),
          ],
        }),
      },
      {
        identity: 'demo-visits',
        title: 'How many times did you see a doctor this year?',
        type: 'number',
        configuration: cfg('¿Cuántas veces fue al médico este año?', { required: false }),
      },
    ],
  },
  {
    identity: 'demo-where',
    title: 'Where you live',
    translations: { es: { title: 'Dónde vive' } },
    fields: [
      {
        identity: 'demo-zip',
        title: 'Your ZIP code',
        type: 'zip',
        configuration: cfg('Su código postal', { helperText: 'We use it to find the study sites nearest to you.' }),
      },
    ],
  },
];

const SITES = [
  { siteId: 'DEMO-MANHATTAN', name: 'Midtown Heart Center', streetAddress: '350 5th Ave', city: 'New York', state: 'NY', zipCode: '10118' },
  { siteId: 'DEMO-BROOKLYN', name: 'Brooklyn Cardiology Research', streetAddress: '1 Pierrepont Plaza', city: 'Brooklyn', state: 'NY', zipCode: '11201' },
  { siteId: 'DEMO-NEWARK', name: 'Newark Clinical Trials Unit', streetAddress: '1 Center St', city: 'Newark', state: 'NJ', zipCode: '07102' },
];

const MESSAGES: { outcome: string; contactForm: string; consent: string; es: { contactFormMessage: string; consentMessage: string } }[] = [
  {
    outcome: 'notQualified',
    contactForm:
      '<p>Thank you for your answers. This study is <strong>not a match</strong> for you right now. Leave your details and we may tell you about other studies.</p>',
    consent: 'May we contact you about future studies that may suit you?',
    es: {
      contactFormMessage:
        '<p>Gracias por sus respuestas. Este estudio <strong>no es adecuado</strong> para usted en este momento. Deje sus datos y podremos informarle de otros estudios.</p>',
      consentMessage: '¿Podemos contactarle sobre futuros estudios que le convengan?',
    },
  },
  {
    outcome: 'qualified',
    contactForm: '<p>Good news: you may be able to take part. Enter your ZIP code to find a study site near you.</p>',
    consent: '',
    es: {
      contactFormMessage: '<p>Buenas noticias: es posible que pueda participar. Introduzca su código postal para encontrar un centro cercano.</p>',
      consentMessage: '',
    },
  },
  {
    outcome: 'trialSiteSelected',
    contactForm: '<p>Leave your details and the site team will call you within two working days.</p>',
    consent: '<p>I agree that the study team may contact me about the Healthy Heart Study. See our <em>privacy notice</em>.</p>',
    es: {
      contactFormMessage: '<p>Deje sus datos y el equipo del centro le llamará en dos días hábiles.</p>',
      consentMessage:
        '<p>Acepto que el equipo del estudio se ponga en contacto conmigo sobre el estudio Corazón Sano. Consulte nuestro <em>aviso de privacidad</em>.</p>',
    },
  },
  {
    outcome: 'completed',
    contactForm: '<p>Thank you! Your details are on their way to the study site.</p>',
    consent: '',
    es: { contactFormMessage: '<p>¡Gracias! Sus datos van de camino al centro del estudio.</p>', consentMessage: '' },
  },
  {
    outcome: 'noTrialSites',
    contactForm: '<p>There is no study site within reach of your ZIP code yet. Leave your details and we will let you know when one opens.</p>',
    consent: 'May we contact you when a study site opens near you?',
    es: {
      contactFormMessage: '<p>Todavía no hay ningún centro del estudio cerca de su código postal. Deje sus datos y le avisaremos cuando abra uno.</p>',
      consentMessage: '¿Podemos contactarle cuando abra un centro del estudio cerca de usted?',
    },
  },
  {
    outcome: 'notActive',
    contactForm: '<p>This questionnaire is closed at the moment. Leave your details and we will tell you when it opens again.</p>',
    consent: 'May we contact you when this questionnaire opens again?',
    es: {
      contactFormMessage: '<p>Este cuestionario está cerrado en este momento. Deje sus datos y le avisaremos cuando vuelva a abrir.</p>',
      consentMessage: '¿Podemos contactarle cuando este cuestionario vuelva a abrir?',
    },
  },
];

const CONTACT_FIELDS = [
  { name: 'first_name', label: 'First name', fieldType: 'text', required: true, translations: { es: 'Nombre' } },
  { name: 'last_name', label: 'Last name', fieldType: 'text', required: true, translations: { es: 'Apellidos' } },
  { name: 'email', label: 'Email', fieldType: 'email', required: true, translations: { es: 'Correo electrónico' } },
  { name: 'phone', label: 'Phone', fieldType: 'phone', required: true, translations: { es: 'Teléfono' } },
  { name: 'zip_code', label: 'ZIP code', fieldType: 'zip', required: true, translations: { es: 'Código postal' } },
];

const STYLES = {
  backButton: { active: '00696F', hover: '004F54', inactive: '7B8794', isShown: true },
  checkbox: { active: '00696F', error: 'B42318', hover: '004F54', inactive: '52606D' },
  formField: { helper: '52606D', error: 'B42318', required: 'B42318' },
  nextButton: { active: '00696F', error: 'B42318', hover: '004F54' },
  responseButton: { active: '00696F', error: 'B42318', hover: '004F54' },
  progressBar: { background: 'CCCCCC', color: '00696F' },
};

export async function seedDemoRun(db: Db, now: Date = new Date(), phi?: PhiCipher): Promise<{ mediaChannelId: number; screenerId: number }> {
  const [sponsor] = await db.select({ id: sponsors.id }).from(sponsors).where(eq(sponsors.identification, 'NWT'));
  const sponsorId =
    sponsor?.id ?? (await db.insert(sponsors).values({ name: 'Northwind Therapeutics', identification: 'NWT' }).returning({ id: sponsors.id }))[0]!.id;

  // Its owner is the installation's first user, the Admin the seed created (as its history says).
  const [owner] = await db.select({ id: users.id }).from(users).orderBy(asc(users.id)).limit(1);
  const [engagement] = await db
    .insert(engagements)
    .values({
      name: 'Healthy Heart Study',
      identification: DEMO_ENGAGEMENT,
      sponsorId,
      description: 'A demo study of a new blood pressure treatment.',
      radius: 25,
      phase: 'III',
      ownerUserId: owner?.id ?? null,
    })
    .returning({ id: engagements.id });
  const engagementId = engagement!.id;

  const sites = await db.insert(siteLocations).values(SITES).returning({ id: siteLocations.id });
  await db.insert(engagementSiteLocations).values(sites.map((s) => ({ engagementId, siteLocationId: s.id })));

  // Every message on, and a coordinator with an address at the first site: a demo run with
  // SMTP_URL set shows the whole flow. The coordinator has no password until an Admin sets one.
  await db
    .insert(engagementMessageSettings)
    .values(MESSAGE_KINDS.map((kind) => ({ engagementId, kind, isEnabled: true, delayMinutes: 0 })))
    .onConflictDoNothing();
  const [coordinatorRole] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, SITE_COORDINATOR));
  const [coordinator] = await db
    .insert(users)
    .values({ username: DEMO_COORDINATOR, email: DEMO_COORDINATOR_EMAIL, isActive: true })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (coordinator && coordinatorRole) {
    await db.insert(userRoles).values({ userId: coordinator.id, roleId: coordinatorRole.id }).onConflictDoNothing();
    await db.insert(userSiteLocations).values({ userId: coordinator.id, siteLocationId: sites[0]!.id }).onConflictDoNothing();
  }

  const [screener] = await db
    .insert(screeners)
    .values({
      title: 'Healthy Heart screener',
      description: 'Checks whether a visitor may join the Healthy Heart Study.',
      sponsorId,
      styles: STYLES,
      translations: { es: { title: 'Cuestionario Corazón Sano' } },
    })
    .returning({ id: screeners.id });
  const screenerId = screener!.id;
  const langs = await db
    .select({ id: languages.id, isoCode: languages.isoCode })
    .from(languages)
    .where(inArray(languages.isoCode, ['en', 'es']));
  if (langs.length > 0) await db.insert(screenerLanguages).values(langs.map((l) => ({ screenerId, languageId: l.id })));
  await db.insert(engagementScreeners).values({ screenerId, engagementId });
  await db.insert(screenerMessages).values(
    MESSAGES.map((m) => ({
      screenerId,
      outcome: m.outcome,
      contactFormMessage: m.contactForm,
      consentMessage: m.consent || null,
      translations: { es: m.es },
    })),
  );

  // Contact fields are shared by screeners: reuse same-named ones staff may already have.
  await db.insert(contactFields).values(CONTACT_FIELDS).onConflictDoNothing();
  const fields = await db
    .select({ id: contactFields.id, name: contactFields.name })
    .from(contactFields)
    .where(
      inArray(
        contactFields.name,
        CONTACT_FIELDS.map((f) => f.name),
      ),
    );
  await db
    .insert(contactFieldScreeners)
    .values(CONTACT_FIELDS.map((f, weight) => ({ screenerId, contactFieldId: fields.find((x) => x.name === f.name)!.id, weight })));

  const [form] = await db
    .insert(oForms)
    .values({
      identity: DEMO_SURVEY_IDENTITY,
      title: 'Healthy Heart questionnaire',
      isApproved: true,
      approvedAt: new Date(),
      engagementId,
      sponsorId,
      containerCount: PAGES.length,
    })
    .returning({ id: oForms.id });
  const oFormId = form!.id;
  if (langs.length > 0) await db.insert(oFormLanguages).values(langs.map((l) => ({ oFormId, languageId: l.id })));
  for (const [index, page] of PAGES.entries()) {
    const [container] = await db
      .insert(oFormContainers)
      .values({ identity: page.identity, oFormId, title: page.title, translations: page.translations, displayOrder: index + 1 })
      .returning({ id: oFormContainers.id });
    await db.insert(oFormFields).values(
      page.fields.map((f, order) => ({
        identity: f.identity,
        containerId: container!.id,
        title: f.title,
        type: f.type,
        displayOrder: order + 1,
        configuration: f.configuration,
      })),
    );
  }
  await db.insert(screenerSurveys).values({ screenerId, oFormIdentity: DEMO_SURVEY_IDENTITY });

  const [channel] = await db
    .insert(mediaChannels)
    .values({ title: 'Demo partner page', domain: 'healthy-living.example', screenerId, channelType: 'Partner Website' })
    .returning({ id: mediaChannels.id });
  const mediaChannelId = channel!.id;
  await db.insert(mediaChannelSurveys).values({ mediaChannelId, oFormIdentity: DEMO_SURVEY_IDENTITY });
  await db
    .insert(appSettings)
    .values({ key: DEMO_CHANNEL_SETTING, value: JSON.stringify({ mediaChannelId, screenerId }) })
    .onConflictDoNothing();
  await seedDemoFunnel(db, { mediaChannelId, screenerId, oFormId, engagementId, sponsorId, identity: DEMO_SURVEY_IDENTITY }, now, phi);
  await seedDemoHistory(db, { sponsorId, engagementId, screenerId, mediaChannelId, siteLocationId: sites[0]!.id }, now);
  return { mediaChannelId, screenerId };
}

/** The demo channel /demo/ embeds, when the demo was seeded. */
export async function demoChannel(db: Db): Promise<{ mediaChannelId: number; screenerId: number } | null> {
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, DEMO_CHANNEL_SETTING));
  if (!row) return null;
  try {
    const parsed = JSON.parse(row.value) as { mediaChannelId?: unknown; screenerId?: unknown };
    return Number.isInteger(parsed.mediaChannelId) && Number.isInteger(parsed.screenerId)
      ? { mediaChannelId: parsed.mediaChannelId as number, screenerId: parsed.screenerId as number }
      : null;
  } catch {
    return null;
  }
}
