-- Starting values so a new installation is usable. Later edits by staff are kept: every insert
-- skips rows that already exist.
INSERT INTO "campaign_types" ("name") VALUES
  ('Digital Media'), ('Social Media'), ('Search Advertising'), ('Email'), ('Print'), ('Radio'),
  ('Television'), ('Community Outreach'), ('Physician Referral')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "target_groups" ("name") VALUES
  ('Adults'), ('Older Adults (65+)'), ('Adolescents'), ('Children'), ('Caregivers'),
  ('Healthy Volunteers'), ('Women'), ('Men'), ('Veterans')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "therapeutic_areas" ("name") VALUES
  ('Oncology'), ('Neurology'), ('Cardiology'), ('Endocrinology'), ('Immunology'),
  ('Infectious Disease'), ('Dermatology'), ('Gastroenterology'), ('Hematology'), ('Psychiatry'),
  ('Respiratory'), ('Nephrology'), ('Ophthalmology'), ('Rheumatology'), ('Rare Diseases'),
  ('Vaccines'), ('Women''s Health')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "question_categories" ("name") VALUES
  ('Demographics'), ('Medical History'), ('Medications'), ('Lifestyle'), ('Eligibility'),
  ('Contact'), ('Consent')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "rms_providers" ("name") VALUES ('Default record system')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "indications" ("name", "is_active") VALUES
  ('Alzheimer''s Disease', true), ('Asthma', true), ('Breast Cancer', true), ('COPD', true),
  ('Heart Failure', true), ('Major Depressive Disorder', true), ('Migraine', true),
  ('Psoriasis', true), ('Rheumatoid Arthritis', true), ('Type 2 Diabetes', true)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "tags" ("name") VALUES ('Demographics'), ('Eligibility'), ('PHI'), ('Screening')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "languages" ("name", "description", "iso_code", "is_active", "is_default") VALUES
  ('English', 'English', 'en', true, true),
  ('Español', 'Spanish', 'es', true, false)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "generic_messages" ("key_name", "message", "translations", "message_type") VALUES
  ('button_next', 'Next', '{"es": "Siguiente"}', 'default'),
  ('button_back', 'Back', '{"es": "Atrás"}', 'default'),
  ('button_submit', 'Submit', '{"es": "Enviar"}', 'default'),
  ('button_retry', 'Try again', '{"es": "Intentar de nuevo"}', 'default'),
  ('progress_label', 'Progress', '{"es": "Progreso"}', 'default'),
  ('error_generic', 'Something went wrong. Please try again.', '{"es": "Algo salió mal. Inténtelo de nuevo."}', 'default'),
  ('error_unreachable', 'We could not reach the server. Check your connection and try again.', '{"es": "No pudimos conectar con el servidor. Compruebe su conexión e inténtelo de nuevo."}', 'default'),
  ('error_not_available', 'This questionnaire is not available right now. Please try again later.', '{"es": "Este cuestionario no está disponible en este momento. Inténtelo de nuevo más tarde."}', 'default'),
  ('outcome_qualified', 'Good news! Based on your answers, you may qualify for this study.', '{"es": "¡Buenas noticias! Según sus respuestas, es posible que califique para este estudio."}', 'default'),
  ('outcome_not_qualified', 'Thank you for your time. Based on your answers, you do not qualify for this study.', '{"es": "Gracias por su tiempo. Según sus respuestas, no califica para este estudio."}', 'default'),
  ('outcome_not_active', 'This study is not enrolling participants at the moment.', '{"es": "Este estudio no está inscribiendo participantes en este momento."}', 'default'),
  ('outcome_no_trial_sites', 'Thank you. There is no study site near you at the moment.', '{"es": "Gracias. En este momento no hay un centro del estudio cerca de usted."}', 'default'),
  ('outcome_trial_site_selected', 'Thank you for choosing a study site.', '{"es": "Gracias por elegir un centro del estudio."}', 'default'),
  ('outcome_completed', 'Thank you! A member of the study team will contact you soon.', '{"es": "¡Gracias! Un miembro del equipo del estudio se pondrá en contacto con usted pronto."}', 'default'),
  ('sites_title', 'Choose a study site near you', '{"es": "Elija un centro del estudio cerca de usted"}', 'default'),
  ('sites_distance', '{distance} miles away', '{"es": "a {distance} millas"}', 'default'),
  ('contact_title', 'Your contact details', '{"es": "Sus datos de contacto"}', 'default'),
  ('consent_label', 'I agree to be contacted about this study.', '{"es": "Acepto que me contacten sobre este estudio."}', 'default'),
  ('privacy_notice', 'Your answers are kept confidential and used only to check whether this study may suit you.', '{"es": "Sus respuestas son confidenciales y solo se usan para comprobar si este estudio puede ser adecuado para usted."}', 'global')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "contact_fields" ("label", "name", "required", "type", "translations") VALUES
  ('First name', 'first_name', true, 'text', '{"es": "Nombre"}'),
  ('Last name', 'last_name', true, 'text', '{"es": "Apellido"}'),
  ('Email', 'email', true, 'email', '{"es": "Correo electrónico"}'),
  ('Phone', 'phone', true, 'phone', '{"es": "Teléfono"}'),
  ('ZIP code', 'zip_code', true, 'zip', '{"es": "Código postal"}'),
  ('I agree to be contacted about this study.', 'contact_consent', true, 'checkbox', '{"es": "Acepto que me contacten sobre este estudio."}')
ON CONFLICT DO NOTHING;
