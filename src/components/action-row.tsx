import type { Action } from '../content/types'
import { actionClasses, SmartLink, type ActionVariant } from './action-link'
import { ChannelIcon } from './channel-icon'

const channelIcon = { telegram: 'send', whatsapp: 'message', email: 'mail' } as const

function ActionLink({
  action,
  variant,
  className = '',
}: {
  action: Action
  variant: ActionVariant
  className?: string
}) {
  const { target } = action
  return (
    <SmartLink target={target} className={`${actionClasses(variant)} ${className}`}>
      {target.kind !== 'page' && <ChannelIcon name={channelIcon[target.kind]} className="size-4" />}
      {action.label}
      {target.kind === 'page' && variant === 'primary' && <span aria-hidden="true">→</span>}
    </SmartLink>
  )
}

/**
 * A row of actions: the first is the primary one. With `channelsFrom="sm"`, the Telegram and
 * WhatsApp actions show only from 640 px: below, the quick-contact bar already holds them, and the
 * screen keeps one call to action.
 */
export function ActionRow({
  actions,
  channelsFrom,
  className = '',
}: {
  actions: readonly Action[]
  channelsFrom?: 'sm'
  className?: string
}) {
  return (
    <div className={`flex flex-col gap-3 sm:flex-row sm:flex-wrap ${className}`}>
      {actions.map((action, index) => (
        <ActionLink
          key={action.label}
          action={action}
          variant={index === 0 ? 'primary' : 'secondary'}
          className={
            channelsFrom && index > 0 && action.target.kind !== 'page' ? 'max-sm:hidden' : ''
          }
        />
      ))}
    </div>
  )
}
