import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { InboxApp } from './app'
import './inbox.css'

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <InboxApp />
  </StrictMode>,
)
