/**
 * A versioned survey as a PDF (pdf-lib, standard Helvetica): title, version and approval,
 * pages (with their titles' translations) and their questions, options with where they lead and whether they disqualify, and
 * the messages. The standard fonts encode WinAnsi only: any other character is first reduced
 * to its base letters (é stays, ő becomes o) and otherwise replaced with '?', so no text can
 * make the export fail.
 */
// Types only: pdf-lib itself is imported when a PDF is made (renderSurveyPdf). Loaded, it holds
// about 20 MB of the server process's memory, and few processes ever export a PDF.
import type { PDFDocument, PDFFont, PDFPage, RGB } from 'pdf-lib';

export interface PdfOption {
  label: string;
  /** The label in each other language of the survey that has one. */
  translations?: { language: string; label: string }[];
  value: string;
  isDisqualified: boolean;
  /** Where the option leads, in words ('Page: Eligibility', 'End of survey'), or null. */
  transition: string | null;
}
export interface PdfQuestion {
  title: string;
  typeName: string;
  required: boolean;
  isActive: boolean;
  helperText: string | null;
  /** The title and helper text in each other language of the survey that has them. */
  translations?: { language: string; title: string; helperText: string }[];
  /** The question's rules in words: 'Disqualifies: No', 'Age 18–65, else disqualified'. */
  rules?: string[];
  options: PdfOption[];
}
export interface PdfPage {
  title: string;
  /** The title in each of the survey's other languages that has one: language name and text. */
  translations: { language: string; title: string }[];
  isActive: boolean;
  questions: PdfQuestion[];
}
export interface PdfMessage {
  type: string;
  language: string;
  message: string;
  isDefault: boolean;
}
export interface SurveyPdf {
  title: string;
  identity: string;
  version: number;
  isApproved: boolean;
  approvedAt: Date | null;
  /** The member of staff who approved it, when known. */
  approvedBy?: string | null;
  engagementName: string;
  sponsorName: string;
  languages: string[];
  pages: PdfPage[];
  messages: PdfMessage[];
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;

/** Text reduced to what `font` can encode. */
const characterSets = new WeakMap<PDFFont, Set<number>>();

export function encodable(font: PDFFont, text: string): string {
  let supported = characterSets.get(font);
  if (!supported) {
    supported = new Set(font.getCharacterSet());
    characterSets.set(font, supported);
  }
  let out = '';
  for (const char of text.replace(/[\t\r\n\u2028\u2029]+/g, ' ')) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    if (supported.has(code)) {
      out += char;
      continue;
    }
    const base = [...char.normalize('NFKD')].filter((c) => supported!.has(c.codePointAt(0) ?? 0) && !/\p{M}/u.test(c)).join('');
    out += base || '?';
  }
  return out;
}

class Writer {
  private page!: PDFPage;
  private y = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly black: RGB,
  ) {
    this.newPage();
  }

  private newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  space(points: number) {
    this.y -= points;
  }

  /** Writes `text` wrapped to the page width, starting a new page when the text would not fit. */
  text(raw: string, options: { size?: number; bold?: boolean; indent?: number; color?: RGB } = {}) {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.regular;
    const indent = options.indent ?? 0;
    const width = A4[0] - 2 * MARGIN - indent;
    for (const line of wrap(font, encodable(font, raw), size, width)) {
      const height = size * 1.35;
      if (this.y - height < MARGIN) this.newPage();
      this.y -= height;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: options.color ?? this.black });
    }
  }
}

/** The day and time (UTC) of an approval. */
const approvedOn = (at: Date | null) => (at ? `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '');

/** Lines of at most `width` points; a word longer than a line is cut where it must be. */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ +/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

export async function renderSurveyPdf(survey: SurveyPdf): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const grey = rgb(0.35, 0.35, 0.35);
  const red = rgb(0.7, 0.1, 0.1);
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  doc.setTitle(encodable(regular, `${survey.title} (version ${survey.version})`));
  doc.setProducer('Screener administration');
  // A fixed date keeps the bytes of one version's export the same from one export to the next.
  doc.setCreationDate(survey.approvedAt ?? new Date(0));
  doc.setModificationDate(survey.approvedAt ?? new Date(0));
  const w = new Writer(doc, regular, bold, rgb(0, 0, 0));

  const by = survey.approvedBy ? ` by ${survey.approvedBy}` : '';
  w.text(survey.title, { size: 18, bold: true });
  w.space(4);
  w.text(`Version ${survey.version}`, { size: 11 });
  w.text(
    survey.isApproved
      ? `Approved on ${approvedOn(survey.approvedAt)}${by}`
      : survey.approvedAt
        ? `Approved on ${approvedOn(survey.approvedAt)}${by}; a later version is the approved one now`
        : 'Not approved',
    { size: 11 },
  );
  w.text(`Sponsor: ${survey.sponsorName}   Engagement: ${survey.engagementName}`, { size: 9, color: grey });
  w.text(`Languages: ${survey.languages.join(', ') || 'English'}`, { size: 9, color: grey });
  w.text(`Survey identity: ${survey.identity}`, { size: 9, color: grey });

  survey.pages.forEach((page, p) => {
    w.space(14);
    w.text(`Page ${p + 1}: ${page.title}${page.isActive ? '' : ' (inactive)'}`, { size: 14, bold: true });
    for (const t of page.translations) w.text(`${t.language}: ${t.title}`, { size: 10, indent: 12, color: grey });
    if (page.questions.length === 0) w.text('No questions.', { indent: 12, color: grey });
    page.questions.forEach((q, i) => {
      w.space(6);
      w.text(`${p + 1}.${i + 1}  ${q.title}`, { size: 11, bold: true, indent: 12 });
      const flags = [q.typeName, q.required ? 'required' : 'optional', ...(q.isActive ? [] : ['inactive'])];
      w.text(flags.join(' - '), { size: 9, indent: 24, color: grey });
      if (q.helperText?.trim()) w.text(`Helper text: ${q.helperText}`, { size: 9, indent: 24 });
      for (const t of q.translations ?? []) {
        if (t.title) w.text(`${t.language}: ${t.title}`, { size: 10, indent: 24, color: grey });
        if (t.helperText) w.text(`${t.language} helper text: ${t.helperText}`, { size: 9, indent: 24, color: grey });
      }
      for (const option of q.options) {
        const parts = [`- ${option.label}`];
        if (option.transition) parts.push(`-> ${option.transition}`);
        if (option.isDisqualified) parts.push('[DISQUALIFIES]');
        w.text(parts.join('   '), { size: 10, indent: 24, color: option.isDisqualified ? red : undefined });
        for (const t of option.translations ?? []) w.text(`${t.language}: ${t.label}`, { size: 9, indent: 36, color: grey });
      }
      // The arrow is not in WinAnsi: the rules say '->' as the options do.
      for (const rule of q.rules ?? [])
        w.text(`Rule: ${rule.replace(/ → /g, ' -> ')}`, { size: 9, bold: true, indent: 24, color: /disquali/i.test(rule) ? red : undefined });
    });
  });

  w.space(16);
  w.text('Messages', { size: 14, bold: true });
  for (const m of survey.messages) {
    w.space(4);
    w.text(`${m.type} (${m.language})${m.isDefault ? ' - default text' : ''}`, { size: 10, bold: true, indent: 12 });
    w.text(m.message || '(empty)', { size: 10, indent: 24 });
  }
  return doc.save();
}
