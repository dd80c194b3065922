import type { Action } from '../content/types'
import { actionClasses, SmartLink, type ActionVariant } from './action-link'
import { ChannelIcon } from './channel-icon'

const channelIcon = { telegram: 'send', whatsapp: 'message', email: 'mail' } as const

function ActionLink({ action, variant }: { action: Action; variant: ActionVariant }) {
  const { target } = action
  return (
    <SmartLink target={target} className={actionClasses(variant)}>
      {target.kind !== 'page' && <ChannelIcon name={channelIcon[target.kind]} className="size-4" />}
      {action.label}
      {target.kind === 'page' && variant === 'primary' && <span aria-hidden="true">→</span>}
    </SmartLink>
  )
}

/** A row of actions: the first is the primary one. */
export function ActionRow({
  actions,
  className = '',
}: {
  actions: readonly Action[]
  className?: string
}) {
  return (
    <div className={`flex flex-col gap-3 sm:flex-row sm:flex-wrap ${className}`}>
      {actions.map((action, index) => (
        <ActionLink
          key={action.label}
          action={action}
          variant={index === 0 ? 'primary' : 'secondary'}
        />
      ))}
    </div>
  )
}
