import { caseStudies, caseStudyCardAction } from '../../src/content/case-studies'
import { briefPlaceholderAbout } from '../../src/content/contact-context'
import { serviceCardAction, services } from '../../src/content/services'
import { formCopy } from '../../src/features/contact/contact-copy'
import { contactForm } from '../support/contact-form'
import { expect, test } from '../support/strict-page'

/**
 * Context carried from the calls to action (issue 27): a case study's or a service's link opens
 * /contact with the project type chosen and the brief's placeholder naming the card. Nothing is
 * typed for the visitor. An unknown
 * or absent `about` leaves the form as it is. The strict page fails on a hydration mismatch (a
 * console error), so the prerendered /contact opened with the parameter proves it hydrates clean.
 */

test("a case study's link opens the form with its project type and its name in the brief", async ({
  page,
}) => {
  const study = caseStudies[2]
  await page.goto('/case-studies')
  // The link in that case's card (its list item carries the case's id).
  await page.locator(`#${study.id}`).getByRole('link', { name: caseStudyCardAction }).click()
  await expect(page).toHaveURL(/\/contact\?about=igaming-ghost-funnel$/)
  const form = contactForm(page)
  await expect(form.project_type).toHaveValue('anonymous-marketing-campaign')
  await expect(form.message).toHaveAttribute(
    'placeholder',
    briefPlaceholderAbout(`the case study “${study.title}”`),
  )
  for (const field of [form.name, form.contact, form.message]) await expect(field).toHaveValue('')
  await expect(form.budget).toHaveValue('')
})

test("a service's link, opened in a new visit, prefills the type after a clean hydration", async ({
  page,
}) => {
  const service = services[2]
  await page.goto('/services')
  const link = page.locator(`#${service.id}`).getByRole('link', { name: serviceCardAction })
  await expect(link).toHaveAttribute('href', '/contact?about=ai-automation')
  // A full load of the prerendered page (not the router's navigation): hydration, then the param.
  await page.goto('/contact?about=ai-automation')
  const form = contactForm(page)
  await expect(form.name).toBeEnabled()
  await expect(form.project_type).toHaveValue('ai-automation-setup')
  await expect(form.message).toHaveAttribute(
    'placeholder',
    briefPlaceholderAbout(`our ${service.title} service`),
  )
})

test('an unknown or absent `about` leaves the form as it is', async ({ page }) => {
  for (const address of ['/contact?about=unknown-case', '/contact?about=', '/contact']) {
    await page.goto(address)
    const form = contactForm(page)
    await expect(form.name).toBeEnabled()
    await expect(form.project_type).toHaveValue('')
    await expect(form.message).toHaveAttribute('placeholder', formCopy.message.placeholder)
  }
})
