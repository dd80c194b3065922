import type { Locator, Page } from '@playwright/test'
import { headerRoutes } from '../../src/config/routes'
import * as about from '../../src/content/about'
import {
  caseStudies,
  caseStudiesCallToAction,
  caseStudiesIntro,
} from '../../src/content/case-studies'
import * as contactPage from '../../src/content/contact-page'
import { sealingKey } from '../../src/content/sealing-key'
import { keySetId } from '../../src/shared/submission/sealed-row'
import { nextSteps } from '../../supabase/staff/generate-key'
import { footerContent } from '../../src/content/footer'
import { arsenal, homeCallToAction, homeHero, trustSignals } from '../../src/content/home'
import { notFoundContent } from '../../src/content/not-found'
import {
  privacyCallToAction,
  privacyIntro,
  privacyKey,
  privacySections,
} from '../../src/content/privacy'
import { repliesIntro } from '../../src/content/replies-page'
import { services, servicesCallToAction, servicesIntro } from '../../src/content/services'
import { site } from '../../src/content/site'
import type { Action, CallToAction, Stat } from '../../src/content/types'
import { formCopy } from '../../src/features/contact/contact-copy'
import { repliesCopy } from '../../src/features/replies/replies-copy'
import { BUDGET_OPTIONS, PROJECT_TYPE_LABELS } from '../../src/shared/submission/fields'
import { siteEnv } from '../../src/lib/env'
import {
  escapeRegExp,
  expectedHref,
  headerLinks,
  mainNavigation,
  pageHeading,
  routeLinks,
  type PageId,
} from './site'
import { expect } from './strict-page'

/**
 * The spec §2 content of each page, asserted from the rendered DOM. Shared by the JavaScript-on
 * run (after hydration) and the JavaScript-off run (the prerendered HTML alone), which differ only
 * in whether the contact form is usable.
 */
export type Scripting = 'js' | 'no-js'

/** Links in order, each with its accessible name and href. */
export async function expectLinks(links: Locator, actions: readonly Action[]): Promise<void> {
  await expect(links).toHaveCount(actions.length)
  for (const [index, action] of actions.entries()) {
    await expect(links.nth(index)).toHaveAccessibleName(action.label)
    await expect(links.nth(index)).toHaveAttribute('href', expectedHref(action.target))
  }
}

export async function expectCallToAction(page: Page, content: CallToAction): Promise<void> {
  const region = page.getByRole('region', { name: content.heading, exact: true })
  await expect(region.getByRole('heading', { level: 2 })).toHaveText(content.heading)
  await expect(region).toContainText(content.body)
  await expectLinks(region.getByRole('link'), content.actions)
}

/** A stat grid: each label paired with its value, in order. */
async function expectStats(scope: Locator, stats: readonly Stat[]): Promise<void> {
  await expect(scope.getByRole('term')).toHaveText(stats.map((stat) => stat.label))
  await expect(scope.getByRole('definition')).toHaveText(stats.map((stat) => stat.value))
}

export async function expectPageContent(
  page: Page,
  id: PageId,
  scripting: Scripting,
): Promise<void> {
  const main = page.getByRole('main')
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(pageHeading[id])
  await contentChecks[id](page, main, scripting)
}

const contentChecks: Record<
  PageId,
  (page: Page, main: Locator, scripting: Scripting) => Promise<void>
> = {
  home: async (page, main) => {
    await expect(main).toContainText(homeHero.lead)
    // The hero's three buttons, then the closing call to action's two: the page's only links.
    await expectLinks(main.getByRole('link'), [...homeHero.actions, ...homeCallToAction.actions])
    await expectStats(main, trustSignals)

    const arsenalSection = page.getByRole('region', { name: arsenal.heading, exact: true })
    await expect(arsenalSection.getByRole('heading', { level: 2 })).toHaveText(arsenal.heading)
    const cards = arsenalSection.getByRole('article')
    await expect(cards).toHaveCount(5)
    for (const [index, capability] of arsenal.capabilities.entries()) {
      await expect(cards.nth(index).getByRole('heading', { level: 3 })).toHaveText(capability.title)
      await expect(cards.nth(index)).toContainText(capability.description)
    }
    await expectCallToAction(page, homeCallToAction)
  },

  services: async (page, main) => {
    await expect(main).toContainText(servicesIntro.lead)
    const cards = main.getByRole('article')
    await expect(cards).toHaveCount(6)
    for (const [index, service] of services.entries()) {
      const card = cards.nth(index)
      await expect(card.getByRole('heading', { level: 2 })).toHaveText(service.title)
      await expect(card).toContainText(service.description)
      await expect(card.getByRole('listitem')).toHaveText([...service.features])
    }
    await expectCallToAction(page, servicesCallToAction)
  },

  'case-studies': async (page, main) => {
    await expect(main).toContainText(caseStudiesIntro.lead)
    const cards = main.getByRole('article')
    await expect(cards).toHaveCount(6)
    for (const [index, study] of caseStudies.entries()) {
      const card = cards.nth(index)
      await expect(card.getByText(study.category, { exact: true })).toBeVisible()
      await expect(card.getByRole('heading', { level: 2 })).toHaveText(study.title)
      await expect(card).toContainText(study.description)
      await expectStats(card, study.metrics)
      await expect(card.getByRole('listitem')).toHaveText([...study.highlights])
    }
    await expectCallToAction(page, caseStudiesCallToAction)
  },

  about: async (page, main) => {
    await expect(main).toContainText(about.aboutIntro.lead)

    const story = page.getByRole('region', { name: about.founderStory.heading, exact: true })
    await expect(story.getByRole('heading', { level: 2 })).toHaveText(about.founderStory.heading)
    await expect(story.getByRole('paragraph')).toHaveText([...about.founderStory.paragraphs])

    const values = main.getByRole('article')
    await expect(values).toHaveCount(4)
    for (const [index, value] of about.coreValues.entries()) {
      await expect(values.nth(index).getByRole('heading', { level: 3 })).toHaveText(value.title)
      await expect(values.nth(index)).toContainText(value.description)
    }

    await expectStats(main, about.aboutStats)

    const founder = page.getByRole('region', { name: about.founderContact.heading, exact: true })
    await expect(founder).toContainText(about.founderContact.body)
    const mail = founder.getByRole('link', {
      name: new RegExp(`^${escapeRegExp(about.founderContact.linkLabel)}`),
    })
    await expect(mail).toHaveAttribute('href', `mailto:${siteEnv.founderEmail}`)

    await expectCallToAction(page, about.aboutCallToAction)
  },

  replies: async (_page, main, scripting) => {
    await expect(main).toContainText(repliesIntro.lead)
    const receipt = main.getByRole('textbox', { name: repliesCopy.receiptLabel, exact: true })
    const open = main.getByRole('button', { name: repliesCopy.open, exact: true })
    for (const control of [receipt, open]) {
      if (scripting === 'js') await expect(control).toBeEnabled()
      else await expect(control).toBeDisabled()
    }
  },

  contact: async (page, main, scripting) => {
    await expect(main).toContainText(contactPage.contactIntro.blurb)

    const formSection = page.getByRole('region', { name: contactPage.formCard.title, exact: true })
    await expect(formSection.getByRole('heading', { level: 2 })).toHaveText(
      contactPage.formCard.title,
    )
    await expect(formSection).toContainText(contactPage.formCard.description)
    await expect(formSection).toContainText(contactPage.formNote)
    // A reply can also come sealed, on /replies.
    await expect(formSection).toContainText(contactPage.repliesNote.text)
    await expect(
      formSection.getByRole('link', { name: contactPage.repliesNote.linkLabel, exact: true }),
    ).toHaveAttribute('href', '/replies')

    const name = formSection.getByRole('textbox', { name: formCopy.name.label, exact: true })
    const contact = formSection.getByRole('textbox', { name: formCopy.contact.label, exact: true })
    const projectType = formSection.getByRole('combobox', {
      name: formCopy.projectType.label,
      exact: true,
    })
    const budget = formSection.getByRole('combobox', { name: formCopy.budget.label, exact: true })
    const brief = formSection.getByRole('textbox', { name: formCopy.message.label, exact: true })
    const submit = formSection.getByRole('button', { name: formCopy.submit, exact: true })

    await expect(name).toHaveAttribute('placeholder', formCopy.name.placeholder)
    await expect(contact).toHaveAttribute('placeholder', formCopy.contact.placeholder)
    await expect(brief).toHaveAttribute('placeholder', formCopy.message.placeholder)
    for (const required of [name, contact, brief])
      await expect(required).toHaveAttribute('required', '')
    for (const optional of [projectType, budget])
      await expect(optional).not.toHaveAttribute('required')
    await expect(brief).toHaveJSProperty('tagName', 'TEXTAREA')
    await expect(brief).toHaveCSS('min-height', '150px')

    // Spec §3: the stored value is the lowercase label with spaces turned into hyphens.
    expect(await optionsOf(projectType)).toEqual([
      { value: '', label: formCopy.projectType.emptyOption },
      ...PROJECT_TYPE_LABELS.map((label) => ({
        value: label.toLowerCase().replaceAll(' ', '-'),
        label,
      })),
    ])
    expect(await optionsOf(budget)).toEqual([
      { value: '', label: formCopy.budget.emptyOption },
      ...BUDGET_OPTIONS.map(({ value, label }) => ({ value, label })),
    ])

    const controls = [name, contact, projectType, budget, brief, submit]
    if (scripting === 'js') {
      for (const control of controls) await expect(control).toBeEnabled()
      await expect(page.getByText(formCopy.noScript.lead)).toHaveCount(0)
    } else {
      // Without JavaScript nothing can be sent, so the form says so and its controls are disabled.
      for (const control of controls) await expect(control).toBeDisabled()
      // Playwright's switch stops scripts without making Chromium render <noscript> (a browser with
      // JavaScript off does), and its text matchers skip <noscript>: read the note from the DOM.
      const note = await formSection
        .locator('noscript')
        .evaluate((element) => element.textContent ?? '')
      expect(note).toContain(formCopy.noScript.lead)
      // The founder's address beside Telegram and WhatsApp, each with what it does and does not seal.
      const { telegram, whatsapp, email } = formCopy.noScript
      for (const channel of [telegram, whatsapp, email]) expect(note).toContain(channel.sealed)
      const links = await formSection
        .locator('noscript')
        .evaluate((element) => element.innerHTML.match(/href="[^"]*"/g) ?? [])
      expect(links).toEqual(
        [siteEnv.telegramUrl, siteEnv.whatsappUrl, `mailto:${siteEnv.founderEmail}`].map(
          (href) => `href="${href}"`,
        ),
      )
    }

    const direct = page.getByRole('region', { name: contactPage.directContact.title, exact: true })
    const channels = direct.getByRole('link')
    await expect(channels).toHaveCount(2)
    await expect(channels.nth(0)).toHaveAccessibleName(
      new RegExp(`^${contactPage.directContact.telegramLabel}\\b`),
    )
    await expect(channels.nth(0)).toHaveAttribute('href', siteEnv.telegramUrl)
    await expect(channels.nth(1)).toHaveAccessibleName(
      new RegExp(`^${contactPage.directContact.whatsappLabel}\\b`),
    )
    await expect(channels.nth(1)).toHaveAttribute('href', siteEnv.whatsappUrl)
    for (const channel of [channels.nth(0), channels.nth(1)])
      await expect(channel).toContainText(contactPage.directContact.channelNote)

    await expectKeyFingerprint(formSection, 'with privacy link')

    const security = page.getByRole('region', {
      name: contactPage.securityMeasures.title,
      exact: true,
    })
    await expect(security.getByRole('listitem')).toHaveText([
      ...contactPage.securityMeasures.bullets,
    ])

    const response = page.getByRole('region', { name: contactPage.responseTime.label, exact: true })
    await expect(response).toContainText(contactPage.responseTime.value)
  },

  privacy: async (page, main) => {
    await expect(main).toContainText(privacyIntro.lead)
    for (const section of privacySections) {
      const region = page.getByRole('region', { name: section.heading, exact: true })
      await expect(region.getByRole('heading', { level: 2 })).toHaveText(section.heading)
      for (const paragraph of section.paragraphs) await expect(region).toContainText(paragraph)
      if ('points' in section)
        await expect(region.getByRole('listitem')).toHaveText([...section.points])
    }
    const key = page.getByRole('complementary', { name: privacyKey.heading, exact: true })
    await expect(key).toContainText(privacyKey.body)
    await expectKeyFingerprint(key, 'on the privacy page')
    await expectCallToAction(page, privacyCallToAction)
  },

  'not-found': async (_page, main) => {
    await expect(main.getByText(notFoundContent.code, { exact: true })).toBeVisible()
    await expect(main).toContainText(notFoundContent.body)
    await expectLinks(main.getByRole('link'), [
      { label: notFoundContent.homeLinkLabel, target: { kind: 'page', to: '/' } },
    ])
  },
}

/**
 * The key the form seals to, shown in the prerendered page (issue 8): one recipient in the e2e
 * build (the local development identity), shortened in the sentence and whole, selectable, in the
 * comparison list; and the link to the privacy page.
 */
async function expectKeyFingerprint(
  scope: Locator,
  privacyLink: 'with privacy link' | 'on the privacy page',
): Promise<void> {
  await expect(scope).toContainText(sealingKey.sealedTo(1))
  // Inside a closed <details>: hidden from role queries until opened.
  const full = scope.locator('details li code')
  await expect(full).toHaveCount(2)
  await expect(full.first()).toHaveText(/^age1[0-9a-z]{58}$/)
  await expect(full.last()).toHaveText(/^[0-9a-f]{64}$/)
  await expect(full.first()).toHaveCSS('user-select', 'all')
  // The fingerprint is the one `npm run keygen` prints for the same recipient and signing key,
  // computed here from the keys the page shows in full: a visitor compares it with the published one.
  const recipient = (await full.first().textContent()) ?? ''
  const signingKey = (await full.last().textContent()) ?? ''
  const key = {
    path: 'key.txt',
    recipient,
    signingKey,
    keyId: await keySetId([recipient]),
    fingerprintId: await keySetId([recipient, signingKey]),
  }
  const printed = /fingerprint:\s+((?:[0-9a-f]{4} ){3}[0-9a-f]{4})/.exec(nextSteps(key, 'e2e'))?.[1]
  await expect(scope.locator('[data-key-fingerprint]')).toHaveText(printed ?? 'missing')
  await expect(scope.getByRole('alert')).toHaveCount(0)
  const link = scope.getByRole('link', { name: sealingKey.privacyLink.label, exact: true })
  if (privacyLink === 'with privacy link') await expect(link).toHaveAttribute('href', '/privacy')
  else await expect(link).toHaveCount(0)
}

async function optionsOf(select: Locator): Promise<Array<{ value: string; label: string }>> {
  return select.locator('option').evaluateAll((options) =>
    options.map((option) => ({
      value: (option as HTMLOptionElement).value,
      label: (option.textContent ?? '').trim(),
    })),
  )
}

/** The footer (spec §2: on all pages): navigation, both channels, the privacy line, the copyright. */
export async function expectFooter(page: Page): Promise<void> {
  const footer = page.getByRole('contentinfo')
  await expect(footer).toBeVisible()
  const navigation = footer.getByRole('navigation', {
    name: footerContent.navigationHeading,
    exact: true,
  })
  await expectLinks(navigation.getByRole('link'), routeLinks)
  await expect(footer.getByRole('link', { name: site.telegramLabel, exact: true })).toHaveAttribute(
    'href',
    siteEnv.telegramUrl,
  )
  await expect(footer.getByRole('link', { name: site.whatsappLabel, exact: true })).toHaveAttribute(
    'href',
    siteEnv.whatsappUrl,
  )
  await expect(
    footer.getByRole('link', { name: footerContent.repliesLabel, exact: true }),
  ).toHaveAttribute('href', '/replies')
  await expect(footer).toContainText(footerContent.privacyLine)
  await expect(footer).toContainText(`© ${new Date().getUTCFullYear()} ${site.name}`)
}

/**
 * The desktop header (spec §2): the five navigation items in order with the current one marked,
 * Start Project to /contact and the Telegram link.
 */
export async function expectDesktopHeader(page: Page, currentPath: string | null): Promise<void> {
  const banner = page.getByRole('banner')
  const links = mainNavigation(page).getByRole('link')
  await expectLinks(links, headerLinks)
  for (const [index, route] of headerRoutes.entries()) {
    if (route.path === currentPath)
      await expect(links.nth(index)).toHaveAttribute('aria-current', 'page')
    else await expect(links.nth(index)).not.toHaveAttribute('aria-current')
  }
  await expect(
    banner.getByRole('link', { name: site.startProjectLabel, exact: true }),
  ).toHaveAttribute('href', '/contact')
  await expect(banner.getByRole('link', { name: site.telegramLabel, exact: true })).toHaveAttribute(
    'href',
    siteEnv.telegramUrl,
  )
}
