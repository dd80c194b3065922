import { Encrypter, generateIdentity, identityToRecipient } from 'age-encryption'
import { sha256 } from '@noble/hashes/sha2.js'
import { randomBytes } from 'node:crypto'
import { sealFile } from './src/features/contact/sealing/seal-file'
const MB = 1024*1024, N = 25*MB
const r = await identityToRecipient(await generateIdentity())
const blob = new Blob([randomBytes(N)])
async function variant(file: Blob, READ: number) {
  const e = new Encrypter(); e.addRecipient(r)
  const hash = sha256.create(); let at = 0
  const source = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (at >= file.size) { c.close(); return }
      const chunk = new Uint8Array(await file.slice(at, at + READ).arrayBuffer())
      at += chunk.byteLength; hash.update(chunk); c.enqueue(chunk)
    }
  }, { highWaterMark: 0 })
  const reader = (await e.encrypt(source)).getReader(); let parts: Uint8Array[] = []; let n = 0
  for (;;) { const { done, value } = await reader.read(); if (done) break; parts.push(value); n += value.byteLength; if (parts.length > 64) { new Blob(parts); parts = [] } }
  return hash.digest()
}
for (let k=0;k<3;k++){
 let s = performance.now(); await sealFile(blob, [r]); console.log('sealFile', (performance.now()-s).toFixed(0))
 for (const R of [64*1024, 1*MB, 4*MB]) { s = performance.now(); await variant(blob, R); console.log('pull', R, (performance.now()-s).toFixed(0)) }
}
