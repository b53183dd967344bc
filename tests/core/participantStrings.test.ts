/** The widget's strings: every English one has its Spanish text, in the list the widget loads only for Spanish. */
import { describe, expect, it } from 'vitest';
import { addSpanish, participantStrings, PARTICIPANT_COUNT, stringsLanguage } from '@core/i18n/participant';
import { stepStrings } from '@core/i18n/participantSteps';
import { es } from '@core/i18n/participantEs';

describe('participant strings', () => {
  it('English until the Spanish list is loaded; then each key has its Spanish text, the steps’ too', () => {
    expect(participantStrings('es').next).toBe('Next');
    expect(stringsLanguage('es-MX')).toBe('en');
    const english = { ...participantStrings('en') };
    const steps = { ...stepStrings('en') };
    expect(es).toHaveLength(PARTICIPANT_COUNT + Object.keys(steps).length);
    addSpanish(es);
    const spanish = participantStrings('es_MX');
    const spanishSteps = stepStrings('es');
    expect(Object.keys(spanish)).toEqual(Object.keys(english));
    for (const [key, text] of [...Object.entries(spanish), ...Object.entries(spanishSteps)]) expect(text, key).toMatch(/\S/);
    expect(spanish.next).toBe('Siguiente');
    expect(spanish.preview).toBe('Vista previa: no se guarda nada.');
    expect(spanishSteps.submit).toBe('Enviar');
    expect(spanishSteps.accept).toBe('Acepto los términos y condiciones.');
    expect(stringsLanguage('es-MX')).toBe('es');
    // Other languages keep English.
    expect(participantStrings('fr').next).toBe('Next');
    expect(stepStrings('english').submit).toBe('Submit');
  });
});
