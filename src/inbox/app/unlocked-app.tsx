import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, Navigate, Route, Routes, useMatch } from 'react-router-dom'
import { copy } from '../content/copy'
import { AddDevice } from '../features/devices/add-device'
import { InquiryScreen } from '../features/inquiries/inquiry-screen'
import { ListScreen } from '../features/inquiries/list-screen'
import { NO_TRIAGE } from '../features/inquiries/triage'
import { useInquiryList } from '../features/inquiries/use-inquiry-list'
import { PasskeyOffer } from '../features/key/passkey-offer'
import type { Unlocked } from '../features/key/use-unlocked-key'
import { ROUTES } from '../lib/routes'

type Props = Unlocked & { onRefused: () => Promise<void> }

/**
 * The queries live in a client made with the key: with no observer left (locked), a query's
 * opening is aborted and what it opened removed at once.
 */
export function UnlockedApp(props: Props) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // Offline is for the queries to answer (the kept list), not a reason to wait.
          queries: { networkMode: 'always', retry: false, gcTime: 0, structuralSharing: false },
        },
      }),
  )
  return (
    <QueryClientProvider client={client}>
      <Screens {...props} />
    </QueryClientProvider>
  )
}

function Screens({ identities, notice, onRefused }: Props) {
  // The inquiry the address names is read and opened before the rest of the list.
  const linked = useMatch(`/${ROUTES.inquiry}`)?.params.ref ?? ''
  const reference = /^[0-9a-f]{8}/.test(linked) ? linked.slice(0, 8) : null
  const list = useInquiryList(identities, reference, onRefused)
  const [triage, setTriage] = useState(NO_TRIAGE)
  const home = (
    <>
      <PasskeyOffer identities={identities} />
      <ListScreen list={list} notice={notice} triage={triage} onTriage={setTriage} />
      <p className="devices">
        <Link to="/devices/add">{copy.devices.add}</Link>
      </p>
    </>
  )
  return (
    <Routes>
      <Route index element={home} />
      <Route
        path={ROUTES.inquiry}
        element={<InquiryScreen list={list} identities={identities} />}
      />
      <Route path={ROUTES.addDevice} element={<AddDevice identities={identities} />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  )
}
