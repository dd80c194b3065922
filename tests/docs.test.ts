// The guides live beside what they describe, so they link to each
// other by relative paths and GitHub heading anchors; a file moved or a heading reworded breaks a
// link silently. This reads every Markdown file git tracks (or would track) the way GitHub renders
// it: marked finds the links, github-slugger makes the anchors GitHub gives each heading.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import GithubSlugger from 'github-slugger'
import { marked, type Token } from 'marked'
import { describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const MAX_README_LINES = 200
const MAX_LINE_WIDTH = 120

const markdownFiles = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.md'],
  { cwd: root, encoding: 'utf8' },
)
  .split('\n')
  .filter((file) => file !== '' && existsSync(join(root, file)))

const read = (file: string) => readFileSync(join(root, file), 'utf8')

/** A heading's text as GitHub renders it (code spans, links and emphasis reduced to their words). */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if ('tokens' in token && token.tokens) return plainText(token.tokens)
      if (token.type === 'html') return ''
      return 'text' in token && typeof token.text === 'string' ? token.text : ''
    })
    .join('')
}

function parse(file: string) {
  const tokens = marked.lexer(read(file))
  const slugger = new GithubSlugger()
  const anchors = new Set<string>()
  const links: string[] = []
  marked.walkTokens(tokens, (token) => {
    if (token.type === 'heading') anchors.add(slugger.slug(plainText(token.tokens ?? [])))
    // An explicit anchor (`<a id="auth"></a>`), which GitHub also scrolls to.
    if (token.type === 'html') {
      for (const match of token.raw.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g))
        anchors.add(match[1] ?? '')
    }
    if (token.type === 'link' || token.type === 'image' || token.type === 'def')
      links.push(String(token.href))
  })
  return { anchors, links }
}

const parsed = new Map(markdownFiles.map((file) => [file, parse(file)]))

/** Why a link from `file` does not resolve, or undefined when it does. */
function brokenReason(file: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return undefined
  const [pathPart = '', anchor] = href.split('#', 2)
  const path = decodeURIComponent(pathPart)
  const target =
    path === ''
      ? file
      : relative(root, path.startsWith('/') ? join(root, path) : resolve(root, dirname(file), path))
  if (target.startsWith('..')) return 'points outside the repository'
  if (!existsSync(join(root, target))) return `${target} does not exist`
  if (anchor === undefined || anchor === '') return undefined
  if (!target.endsWith('.md')) {
    return /^L\d+(-L\d+)?$/.test(anchor) ? undefined : `#${anchor} on a file that is not Markdown`
  }
  if (statSync(join(root, target)).isDirectory()) return `#${anchor} on a folder`
  const anchors = parsed.get(target)?.anchors ?? parse(target).anchors
  return anchors.has(decodeURIComponent(anchor)) ? undefined : `${target} has no heading #${anchor}`
}

describe('the Markdown guides', () => {
  test('are found (README.md among them)', () => {
    expect(markdownFiles).toContain('README.md')
  })

  test('every relative link and #anchor in every Markdown file resolves', () => {
    const broken = markdownFiles.flatMap((file) =>
      (parsed.get(file)?.links ?? []).flatMap((href) => {
        const reason = brokenReason(file, href)
        return reason === undefined ? [] : [`${file}: (${href}) ${reason}`]
      }),
    )
    expect(broken).toEqual([])
  })

  test(`README.md is a map of at most ${MAX_README_LINES} lines`, () => {
    const lines = read('README.md').match(/\n/g)?.length ?? 0
    expect(lines).toBeLessThanOrEqual(MAX_README_LINES)
  })

  test(`no line of a Markdown file (code blocks included) is wider than ${MAX_LINE_WIDTH} characters`, () => {
    const wide = markdownFiles.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) => {
          const width = [...line].length
          return width > MAX_LINE_WIDTH ? [`${file}:${index + 1} is ${width} characters`] : []
        }),
    )
    expect(wide).toEqual([])
  })
})
