import 'react'

/*
 * The HTML popover attributes, which React 18's types do not list yet (React passes unknown
 * lowercase attributes through to the DOM as they are).
 */
/* eslint-disable @typescript-eslint/no-unused-vars -- merged interfaces must repeat React's type parameter */
declare module 'react' {
  interface HTMLAttributes<T> {
    popover?: 'auto' | 'manual' | ''
  }
  interface ButtonHTMLAttributes<T> {
    popovertarget?: string
    popovertargetaction?: 'toggle' | 'show' | 'hide'
  }
}
