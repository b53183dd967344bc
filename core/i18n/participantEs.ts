/**
 * Every participant string in Spanish: the widget's own (./participant.ts), then its steps'
 * after the survey (./participantSteps.ts), each in the order of the English keys (a core test
 * holds the two lists together). A module of its own, and a plain list without the keys, so the
 * widget loads it only for a participant who reads Spanish, in as few bytes as it can.
 */
export const es: readonly string[] = [
  /* title */ 'Cuestionario del estudio',
  /* badSnippet */ 'No se pudo cargar este cuestionario. Avise al propietario del sitio web.',
  /* failed */ 'Algo salió mal. Compruebe su conexión e inténtelo de nuevo.',
  /* retry */ 'Reintentar',
  /* loading */ 'Cargando…',
  /* next */ 'Siguiente',
  /* back */ 'Atrás',
  /* required */ 'obligatorio',
  /* choose */ 'Elija…',
  /* yes */ 'Sí',
  /* no */ 'No',
  /* progress */ 'Progreso',
  /* qualified */ '¡Gracias! Es posible que pueda participar.',
  /* notQualified */ 'Gracias por su tiempo.',
  /* notActive */ 'Este cuestionario no está disponible en este momento.',
  /* noTrialSites */ 'Por ahora no hay ningún centro del estudio cerca de usted.',
  /* completed */ '¡Gracias! Un miembro del equipo del estudio se pondrá en contacto con usted.',
  /* preview */ 'Vista previa: no se guarda nada.',
  /* submit */ 'Enviar',
  /* zipTitle */ 'Busque un centro del estudio cerca de usted',
  /* zipLabel */ 'Código postal',
  /* search */ 'Buscar centros',
  /* sitesTitle */ 'Elija un centro del estudio',
  /* miles */ 'a {n} milla{s}',
  /* near */ 'a menos de 0.1 millas',
  /* contactTitle */ 'Sus datos de contacto',
  /* consentTitle */ 'Consentimiento',
  /* accept */ 'Acepto los términos y condiciones.',
  /* noThanks */ 'No, gracias',
  /* country */ 'País',
  /* place */ 'Código postal o ciudad',
  /* km */ 'a {n} km',
  /* postal */ 'Código postal',
];
