/**
 * tus-js-client's HTTP stack on `fetch`, for where XMLHttpRequest does not exist (the service
 * worker). Progress is reported once a request's body has gone, not byte by byte: nobody watches a
 * worker's upload.
 */
import type { HttpRequest, HttpResponse, HttpStack } from 'tus-js-client'

class FetchRequest implements HttpRequest {
  readonly #headers: Record<string, string> = {}
  readonly #controller = new AbortController()
  #onProgress: ((bytes: number) => void) | null = null

  constructor(
    readonly method: string,
    readonly url: string,
  ) {}

  getMethod = () => this.method
  getURL = () => this.url
  setHeader(header: string, value: string) {
    this.#headers[header] = value
  }
  getHeader = (header: string) => this.#headers[header]
  setProgressHandler(handler: (bytes: number) => void) {
    this.#onProgress = handler
  }

  async send(body: Blob | null = null): Promise<HttpResponse> {
    const response = await fetch(this.url, {
      method: this.method,
      headers: this.#headers,
      body,
      signal: this.#controller.signal,
    })
    if (body) this.#onProgress?.(body.size)
    const text = await response.text()
    return {
      getStatus: () => response.status,
      getHeader: (header) => response.headers.get(header) ?? undefined,
      getBody: () => text,
      getUnderlyingObject: () => response,
    }
  }

  abort() {
    this.#controller.abort()
    return Promise.resolve()
  }

  getUnderlyingObject = () => this.#controller
}

export const fetchHttpStack: HttpStack = {
  createRequest: (method, url) => new FetchRequest(method, url),
  getName: () => 'FetchHttpStack',
}
