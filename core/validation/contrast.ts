/**
 * Colour contrast (WCAG 2.1 relative luminance) of a screener's styles as the participant
 * widget paints them: what the screener editor warns about when below AA. Text needs 4.5:1,
 * borders, boxes and the progress bar 3:1; the back button's inactive colour is exempt
 * (WCAG exempts inactive controls).
 */
export const AA_TEXT = 4.5;
export const AA_NON_TEXT = 3;

/** 6 or 2 hex digits (SPEC color_hex; `AB` is the grey #ABABAB), or null when not a colour. */
function rgb(hex: string): [number, number, number] | null {
  const h = hex.trim().replace(/^#/, '');
  const full = /^[0-9a-f]{2}$/i.test(h) ? h.repeat(3) : h;
  if (!/^[0-9a-f]{6}$/i.test(full)) return null;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio of two colours (1 to 21), or null when either is not a colour. */
export function contrastRatio(a: string, b: string): number | null {
  const x = rgb(a);
  const y = rgb(b);
  if (!x || !y) return null;
  const [hi, lo] = [luminance(x), luminance(y)].sort((m, n) => n - m) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** How the widget uses each colour: against what, and which minimum applies. */
const USES: Record<string, { against: 'white' | 'progressBar.background'; min: number; what: string }> = {
  'nextButton.active': { against: 'white', min: AA_TEXT, what: 'behind the white button text' },
  'nextButton.hover': { against: 'white', min: AA_TEXT, what: 'behind the white button text' },
  'nextButton.error': { against: 'white', min: AA_TEXT, what: 'behind the white button text' },
  'backButton.active': { against: 'white', min: AA_TEXT, what: 'as text on white' },
  'backButton.hover': { against: 'white', min: AA_TEXT, what: 'as text on white' },
  'formField.helper': { against: 'white', min: AA_TEXT, what: 'as text on white' },
  'formField.error': { against: 'white', min: AA_TEXT, what: 'as text on white' },
  'formField.required': { against: 'white', min: AA_TEXT, what: 'as text on white' },
  'responseButton.active': { against: 'white', min: AA_NON_TEXT, what: 'as a border on white' },
  'responseButton.hover': { against: 'white', min: AA_NON_TEXT, what: 'as a border on white' },
  'responseButton.error': { against: 'white', min: AA_NON_TEXT, what: 'as a border on white' },
  'checkbox.active': { against: 'white', min: AA_NON_TEXT, what: 'as a box on white' },
  'checkbox.hover': { against: 'white', min: AA_NON_TEXT, what: 'as a box on white' },
  'checkbox.error': { against: 'white', min: AA_NON_TEXT, what: 'as a box on white' },
  'checkbox.inactive': { against: 'white', min: AA_NON_TEXT, what: 'as a box border on white' },
  'progressBar.color': { against: 'progressBar.background', min: AA_NON_TEXT, what: 'on the progress bar background' },
};

export interface ContrastWarning {
  /** `group.name` of the colour. */
  key: string;
  ratio: number;
  min: number;
  what: string;
}

/** The colours (keyed `group.name`, as typed) whose contrast is below AA where the widget uses them. */
export function contrastWarnings(colours: Readonly<Record<string, string | null | undefined>>, progressBarDefault = 'CCCCCC'): ContrastWarning[] {
  const out: ContrastWarning[] = [];
  for (const [key, use] of Object.entries(USES)) {
    const colour = colours[key]?.trim();
    if (!colour) continue;
    const against = use.against === 'white' ? 'FFFFFF' : colours[use.against]?.trim() || progressBarDefault;
    const ratio = contrastRatio(colour, against);
    if (ratio !== null && ratio < use.min) out.push({ key, ratio: Math.floor(ratio * 100) / 100, min: use.min, what: use.what });
  }
  return out;
}
