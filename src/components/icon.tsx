import {
  Bot,
  ChartNoAxesCombined,
  Clock,
  Coins,
  CreditCard,
  EyeOff,
  Ghost,
  Globe,
  Handshake,
  Lock,
  Mail,
  Megaphone,
  MessageCircle,
  Rocket,
  Send,
  Shield,
  Target,
  TrendingUp,
  Users,
  Zap,
  type LucideIcon,
} from 'lucide-react'
import type { IconName } from '../content/types'

const icons: Record<IconName, LucideIcon> = {
  rocket: Rocket,
  megaphone: Megaphone,
  ghost: Ghost,
  bot: Bot,
  'credit-card': CreditCard,
  send: Send,
  mail: Mail,
  users: Users,
  shield: Shield,
  lock: Lock,
  target: Target,
  handshake: Handshake,
  chart: ChartNoAxesCombined,
  'eye-off': EyeOff,
  zap: Zap,
  coins: Coins,
  clock: Clock,
  globe: Globe,
  message: MessageCircle,
  'trending-up': TrendingUp,
}

/** A decorative icon: hidden from assistive technology, since text always accompanies it. */
export function Icon({ name, className = 'size-5' }: { name: IconName; className?: string }) {
  const Svg = icons[name]
  return <Svg className={className} aria-hidden="true" focusable="false" strokeWidth={1.75} />
}
