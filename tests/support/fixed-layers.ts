import type { Page } from '@playwright/test'

/**
 * Scrolls every visible link, button and form control into view in turn (as focusing or a
 * scroll-to would) and lists each one a fixed element covers. Controls that are themselves part
 * of a fixed element (the header, the quick-contact buttons) are not scrolled content.
 */
export async function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const isFixed = (element: Element) =>
      ['fixed', 'sticky'].includes(getComputedStyle(element).position)
    // Visible, and not clipped away: the visually hidden skip link only shows once focused, and is
    // then fixed itself.
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect()
      const clipped = getComputedStyle(element).clipPath !== 'none'
      return (
        element.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
        !clipped &&
        box.width > 1 &&
        box.height > 1
      )
    }
    const fixed = [...document.querySelectorAll('body *')].filter(
      (element) => isFixed(element) && shown(element),
    )
    const controls = [
      ...document.querySelectorAll<HTMLElement>(
        'a[href], button, input, select, textarea, summary, [tabindex="0"]',
      ),
    ].filter((control) => shown(control) && !fixed.some((layer) => layer.contains(control)))
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`
    const problems: string[] = []
    for (const control of controls) {
      control.scrollIntoView({ block: 'nearest', inline: 'nearest' })
      const box = control.getBoundingClientRect()
      for (const layer of fixed) {
        const cover = layer.getBoundingClientRect()
        // One pixel of touching borders is not covering.
        const overlapX = Math.min(box.right, cover.right) - Math.max(box.left, cover.left)
        const overlapY = Math.min(box.bottom, cover.bottom) - Math.max(box.top, cover.top)
        if (overlapX > 1 && overlapY > 1)
          problems.push(`${describe(control)} under ${describe(layer)}`)
      }
    }
    window.scrollTo(0, 0)
    return problems
  })
}

/**
 * The share of the screen's height that fixed layers other than the header (the banner) take: the
 * union of their rows, so layers stacked on each other count once, and a layer pushed off the screen
 * (the quick-contact bar while the visitor types) counts for what still shows.
 */
export async function fixedShareBelowHeader(page: Page): Promise<number> {
  return page.evaluate(() => {
    const header = document.querySelector('header')
    const layers = [...document.querySelectorAll('body *')].filter((element) => {
      if (!['fixed', 'sticky'].includes(getComputedStyle(element).position)) return false
      if (header?.contains(element) || element.contains(header)) return false
      const box = element.getBoundingClientRect()
      return (
        element.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
        box.width > 1 &&
        box.height > 1
      )
    })
    const rows = layers
      .map((element) => element.getBoundingClientRect())
      .map((box) => [Math.max(0, box.top), Math.min(window.innerHeight, box.bottom)] as const)
      .filter(([top, bottom]) => bottom > top)
      .sort((a, b) => a[0] - b[0])
    let covered = 0
    let reach = 0
    for (const [top, bottom] of rows) {
      const from = Math.max(top, reach)
      if (bottom > from) covered += bottom - from
      reach = Math.max(reach, bottom)
    }
    return covered / window.innerHeight
  })
}
