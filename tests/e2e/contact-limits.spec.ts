import { submitToasts } from '../../src/features/contact/contact-copy'
import { FIELD_MESSAGES } from '../../src/shared/submission/fields'
import { contactForm, openContactPage, toast } from '../support/contact-form'
import { expect, test } from '../support/strict-page'

/**
 * Nothing a visitor types is cut off (issue 27): a brief over the limit stays whole in the field,
 * the field says by how much and what to do, and nothing leaves the page while it is over.
 */

const BRIEF_OVER =
  'The brief is 6,000 characters; the limit is 5,000: shorten it, or send the rest in a second message'

test('a 6,000-character brief stays whole, gets its sentence, and nothing is sent', async ({
  page,
}) => {
  const restRequests: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1')) restRequests.push(request.url())
  })
  await openContactPage(page)
  const form = contactForm(page)
  await form.name.fill('Long Brief')
  await form.contact.fill('long@example.com')

  const brief = 'Every word counts. '.repeat(400).slice(0, 6000)
  // fill() inserts the text as a paste does: a `maxlength` would keep the first 5,000.
  await form.message.fill(brief)
  await expect(form.message).toHaveValue(brief)
  await expect(form.message).toHaveAccessibleDescription(BRIEF_OVER)
  await expect(form.message).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText(BRIEF_OVER)).toHaveAttribute('aria-live', 'polite')

  await form.submit.click()
  await expect(toast(page, submitToasts.invalid.title)).toBeVisible()
  await expect(form.message).toBeFocused()
  await expect(form.message).toHaveValue(brief)
  await expect(page.getByText(BRIEF_OVER)).toHaveCount(1)
  expect(restRequests).toEqual([])

  // Shortened to the limit: the note counts again and the sentence goes.
  await form.message.fill(brief.slice(0, 4990))
  await expect(form.message).toHaveAccessibleDescription(FIELD_MESSAGES.charactersLeft(10))
  await expect(page.getByText(BRIEF_OVER)).toHaveCount(0)
})
