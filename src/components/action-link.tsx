import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import type { LinkTarget } from '../content/types'
import { site } from '../content/site'

export type ActionVariant = 'primary' | 'secondary' | 'ghost'

const variantClasses: Record<ActionVariant, string> = {
  primary:
    'bg-mint text-on-accent hover:bg-mint-strong shadow-[0_0_0_1px_rgb(126_240_192/0.4),0_12px_40px_-12px_rgb(126_240_192/0.6)]',
  secondary: 'border border-line bg-surface-raised text-text hover:border-mint/60',
  ghost: 'text-text hover:text-mint',
}

export const actionClasses = (variant: ActionVariant) =>
  `inline-flex min-h-12 items-center justify-center gap-2 rounded-full px-6 py-3 text-sm font-semibold transition-colors ${variantClasses[variant]}`

/** Where a target points: internal targets stay in the router, channels are plain links. */
function hrefOf(target: LinkTarget): string {
  switch (target.kind) {
    case 'page':
      return target.to
    case 'telegram':
      return site.telegramUrl
    case 'whatsapp':
      return site.whatsappUrl
    case 'email':
      return `mailto:${site.founderEmail}`
  }
}

type SmartLinkProps = {
  target: LinkTarget
  className?: string
  children: ReactNode
  onClick?: () => void
  'aria-label'?: string
}

/**
 * One link for every target. External channels get `rel="noreferrer"`: the messaging apps need
 * not learn which page a visitor came from.
 */
export function SmartLink({ target, className, children, onClick, ...aria }: SmartLinkProps) {
  if (target.kind === 'page') {
    return (
      <Link to={target.to} className={className} onClick={onClick} {...aria}>
        {children}
      </Link>
    )
  }
  return (
    <a href={hrefOf(target)} rel="noreferrer" className={className} onClick={onClick} {...aria}>
      {children}
    </a>
  )
}
