import { CircleCheck, Lock, Mail, MessageCircle, Send, Shield } from 'lucide-react'

const icons = {
  send: Send,
  message: MessageCircle,
  mail: Mail,
  shield: Shield,
  lock: Lock,
  check: CircleCheck,
}
export type ChannelIconName = keyof typeof icons

/**
 * The few icons of the shared frame (header, footer, floating buttons, the channel buttons of any
 * action row), which every page loads anyway. Kept apart from `icon.tsx`, whose full registry
 * only pages with data-driven icons need: the privacy page and the sealing key use these instead.
 */
export function ChannelIcon({
  name,
  className = 'size-5',
}: {
  name: ChannelIconName
  className?: string
}) {
  const Svg = icons[name]
  return <Svg className={className} aria-hidden="true" focusable="false" strokeWidth={1.75} />
}
