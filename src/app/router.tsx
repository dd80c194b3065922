import { createElement, lazy, type ComponentType } from 'react'
import { Route, Routes } from 'react-router-dom'
import { RootLayout } from './root-layout'
import { routeForPath, siteRoutes, type RouteId } from '../config/routes'

export type PageId = RouteId | 'not-found'

type PageLoader = () => Promise<ComponentType>

/**
 * One module per page, named after its id and exporting its one component: each is loaded on its
 * own, so a content page loads only its own code (never the contact form's validation or the
 * Supabase client). The prerendered HTML preloads the module of its page.
 */
const pageModules = import.meta.glob<Record<string, ComponentType>>([
  '../pages/*.tsx',
  '!../pages/*.test.tsx',
])
const pageIds: PageId[] = [...siteRoutes.map((route) => route.id), 'not-found']
const pageLoaders = Object.fromEntries(
  pageIds.map((id) => [
    id,
    () => pageModules[`../pages/${id}.tsx`]!().then((page) => Object.values(page)[0]!),
  ]),
) as Record<PageId, PageLoader>

/** Source modules of the pages, so the prerender can preload each page's code. */
export const pageSourceFiles = Object.fromEntries(
  pageIds.map((id) => [id, `src/pages/${id}.tsx`]),
) as Record<PageId, string>

const loadedPages = new Map<PageId, ComponentType>()
const lazyPages = {} as Record<PageId, ComponentType>
for (const id of Object.keys(pageLoaders) as PageId[]) {
  lazyPages[id] = lazy(async () => ({ default: await remember(id, pageLoaders[id]) }))
}

async function remember(id: PageId, load: PageLoader): Promise<ComponentType> {
  const Component = await load()
  loadedPages.set(id, Component)
  return Component
}

export function pageIdFor(pathname: string): PageId {
  return routeForPath(pathname)?.id ?? 'not-found'
}

/**
 * Loads the page of an address ahead of rendering. The prerender needs it (React 18's
 * renderToString cannot wait for a lazy component) and so does hydration (the first client render
 * must match the prerendered markup, not a loading state).
 */
export async function preloadPage(pathname: string): Promise<void> {
  const id = pageIdFor(pathname)
  if (!loadedPages.has(id)) await remember(id, pageLoaders[id])
}

/** A page already loaded renders at once; any other suspends until its code arrives. */
function Page({ id }: { id: PageId }) {
  // Both maps hold module-level components: looked up here, never created during render.
  return createElement(loadedPages.get(id) ?? lazyPages[id])
}

/** The route tree, from the route table, for both the browser router and the prerender. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        {siteRoutes.map((route) => (
          <Route key={route.id} path={route.path} element={<Page id={route.id} />} />
        ))}
        <Route path="*" element={<Page id="not-found" />} />
      </Route>
    </Routes>
  )
}
