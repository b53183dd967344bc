/** Choosing a survey in the admin's survey picker (admin/components/SurveyPicker.tsx) as a person does: type, then click the option. */
import type { Page } from 'playwright-core';

export async function pickSurvey(page: Page, label: string, typed: string, option: string | RegExp = typed): Promise<void> {
  const box = page.getByRole('combobox', { name: label, exact: true });
  await box.click();
  await box.fill(typed);
  await page
    .getByRole('listbox', { name: `${label} options` })
    .getByRole('option')
    .filter({ hasText: option })
    .first()
    .click();
}
