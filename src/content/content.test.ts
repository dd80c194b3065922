// @vitest-environment node
import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ENV_DEFAULTS, siteEnv } from '../lib/env'
import * as about from './about'
import * as caseStudiesModule from './case-studies'
import * as contactPage from './contact-page'
import * as footer from './footer'
import * as home from './home'
import * as servicesModule from './services'
import type { Action } from './types'
import { PROJECT_TYPE_VALUES } from '../shared/submission/fields'
import { contactContextOf, contactContexts } from './contact-context'

const { homeHero, arsenal, homeCallToAction, trustSignals } = home
const { services, servicesCallToAction } = servicesModule
const { caseStudies, caseStudiesCallToAction } = caseStudiesModule
const { coreValues, aboutStats, aboutCallToAction, aboutIntro, founderStory } = about
const { contactIntro, formCard, directContact, securityMeasures, responseTime, formNote } =
  contactPage

const modules = { home, servicesModule, caseStudiesModule, about, contactPage, footer }

/** Every string reachable from the exported content, with the path that leads to it. */
function collectStrings(value: unknown, path: string): Array<{ path: string; text: string }> {
  if (typeof value === 'string') return [{ path, text: value }]
  if (Array.isArray(value)) return value.flatMap((item, i) => collectStrings(item, `${path}[${i}]`))
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => collectStrings(item, `${path}.${key}`))
  }
  return []
}

const allStrings = Object.entries(modules).flatMap(([name, mod]) => collectStrings(mod, name))

const wordCount = (text: string) => text.trim().split(/\s+/).length

const page = (to: string) => ({ kind: 'page', to })

/** Marketing claims of spec §9, written as the pages show them. */
const caseStudyFigures = ['$3.4M', '120,000', '98%', '500%', '340%', '50M']
const aboutFigures = ['$50M+', '500K+', '98%', '24/7']

describe('home content', () => {
  it('hero carries the spec tagline and its three actions in order', () => {
    expect(homeHero.tagline).toBe('Anonymous. Scalable. Unstoppable.')
    expect(homeHero.actions).toEqual<Action[]>([
      { label: 'Start a Campaign', target: { kind: 'page', to: '/contact' } },
      { label: 'Chat on Telegram', target: { kind: 'telegram' } },
      { label: 'Message on WhatsApp', target: { kind: 'whatsapp' } },
    ])
  })

  it('arsenal section has the spec heading and five distinct capabilities', () => {
    expect(arsenal.heading).toBe('Elite Digital Arsenal')
    expect(arsenal.capabilities).toHaveLength(5)
    expect(new Set(arsenal.capabilities.map((c) => c.title)).size).toBe(5)
  })

  it('closing call to action leads to the contact form, services and case studies', () => {
    expect(homeCallToAction.actions).toEqual([
      { label: 'Send a Secure Brief', target: page('/contact') },
      { label: 'View Services', target: page('/services') },
      { label: 'See Results', target: page('/case-studies') },
    ])
  })

  it('trust signals only use figures the spec claims', () => {
    const allowed = [...caseStudyFigures, ...aboutFigures, '< 24hrs']
    expect(trustSignals.length).toBeGreaterThanOrEqual(3)
    for (const signal of trustSignals) expect(allowed).toContain(signal.value)
  })
})

describe('services content', () => {
  it('lists the six spec services in order, each with four features', () => {
    expect(services.map((s) => s.id)).toEqual([
      'crypto-campaigns',
      'anonymous-funnels',
      'ai-automation',
      'payment-solutions',
      'telegram-community',
      'email-sms-sequences',
    ])
    for (const service of services) expect(service.features).toHaveLength(4)
  })

  it('service descriptions fit a phone card (at most 30 words)', () => {
    for (const service of services) expect(wordCount(service.description)).toBeLessThanOrEqual(30)
  })

  it('call to action offers Telegram and the secure form', () => {
    expect(servicesCallToAction.actions).toEqual([
      { label: 'Start on Telegram', target: { kind: 'telegram' } },
      { label: 'Send Secure Message', target: page('/contact') },
    ])
  })
})

describe('case studies content', () => {
  it('has six case studies, each with four metrics and four highlights', () => {
    expect(caseStudies).toHaveLength(6)
    for (const study of caseStudies) {
      expect(study.metrics).toHaveLength(4)
      expect(study.highlights).toHaveLength(4)
    }
  })

  it('shows every case-study figure of the spec as a metric value', () => {
    const values = caseStudies.flatMap((s) => s.metrics.map((m) => m.value as string))
    for (const figure of caseStudyFigures) expect(values).toContain(figure)
  })

  it('case study descriptions fit a phone card (at most 40 words)', () => {
    for (const study of caseStudies) expect(wordCount(study.description)).toBeLessThanOrEqual(40)
  })

  it('call to action sends both buttons to the contact page', () => {
    expect(caseStudiesCallToAction.actions).toEqual([
      { label: 'Discuss Your Project', target: page('/contact') },
      { label: 'Request Case Study Details', target: page('/contact') },
    ])
  })
})

describe('the context a call to action carries to the form (issue 27)', () => {
  it('names every case study and service by its own title, with a project type of the spec', () => {
    const cards = [
      ...caseStudies.map((study) => ({ id: study.id, name: `the case study “${study.title}”` })),
      ...services.map((service) => ({ id: service.id, name: `our ${service.title} service` })),
    ]
    for (const { id, name } of cards) {
      const context = contactContextOf(`?about=${id}`)
      expect(context?.name).toBe(name)
      expect(PROJECT_TYPE_VALUES).toContain(
        context && 'projectType' in context && context.projectType,
      )
    }
    expect(Object.keys(contactContexts)).toHaveLength(cards.length)
  })

  it('leaves the form as it is for an unknown or absent id', () => {
    for (const search of ['', '?about=', '?about=case-studies', '?about=toString', '?other=x'])
      expect(contactContextOf(search)).toBeNull()
  })
})

describe('about content', () => {
  it('has the four core values of the spec in order', () => {
    expect(coreValues.map((v) => v.title)).toEqual(['Secrecy', 'Precision', 'Trust', 'Data'])
  })

  it('has the four headline stats of the spec in order', () => {
    expect(aboutStats.map((s) => s.value)).toEqual(aboutFigures)
  })

  it('founder story has three or four paragraphs', () => {
    expect(founderStory.paragraphs.length).toBeGreaterThanOrEqual(3)
    expect(founderStory.paragraphs.length).toBeLessThanOrEqual(4)
  })

  it('call to action offers Telegram and a secure brief', () => {
    expect(aboutCallToAction.actions).toEqual([
      { label: 'Message on Telegram', target: { kind: 'telegram' } },
      { label: 'Send Secure Brief', target: page('/contact') },
    ])
  })
})

describe('contact page content', () => {
  it('uses the exact headings and labels of the spec', () => {
    expect(contactIntro.heading).toBe('Secure Contact')
    expect(formCard.title).toBe('Encrypted Contact Form')
    expect(directContact.title).toBe('Direct Contact')
    expect(directContact.channelNote).toBe('Encrypted messaging')
    expect(securityMeasures.title).toBe('Security Measures')
    expect(responseTime.value).toBe('< 24hrs')
  })

  it('lists the four security measures in order', () => {
    expect(securityMeasures.bullets).toEqual([
      'End-to-end encrypted communications',
      'No data retention after project completion',
      'Secure file transfer protocols',
      'Anonymous payment options available',
    ])
  })

  it('form note mentions end-to-end encryption and the purge after completion', () => {
    expect(formNote).toMatch(/end-to-end encryption/i)
    expect(formNote).toMatch(/purged after project completion/i)
  })
})

describe('all content', () => {
  it('has no empty copy string', () => {
    expect(allStrings.length).toBeGreaterThan(100)
    const empty = allStrings.filter((s) => s.text.trim() === '').map((s) => s.path)
    expect(empty).toEqual([])
  })

  it('has no emoji', () => {
    const withEmoji = allStrings.filter((s) => /\p{Extended_Pictographic}/u.test(s.text))
    expect(withEmoji.map((s) => s.path)).toEqual([])
  })

  it('uses unique kebab-case ids for services and case studies', () => {
    const ids = [...services, ...caseStudies].map((item) => item.id as string)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  })

  it('takes the agency name from configuration, never from a literal', () => {
    expect(aboutIntro.heading).toBe(`About ${siteEnv.agencyName}`)
    expect(homeHero.lead).toContain(siteEnv.agencyName)

    const dir = new URL('.', import.meta.url)
    const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    expect(sources.length).toBeGreaterThanOrEqual(6)
    for (const file of sources) {
      expect(readFileSync(new URL(file, dir), 'utf8'), file).not.toContain(
        ENV_DEFAULTS.VITE_AGENCY_NAME,
      )
    }
  })
})
