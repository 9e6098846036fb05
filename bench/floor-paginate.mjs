// Floor for `amctl runs list --all --json`: a minimal undici cursor loop over the same server,
// writing the same bytes ({"items":[…]} with every item, compact), with back-pressure.
import {request} from 'undici'

const [url, limit] = process.argv.slice(2)
const write = (text) => (process.stdout.write(text) ? undefined : new Promise((resolve) => process.stdout.once('drain', resolve)))
let cursor
let first = true
await write('{"items":[')
do {
  const query = new URLSearchParams({limit})
  if (cursor) query.set('cursor', cursor)
  const res = await request(`${url}?${query}`, {headers: {authorization: `Bearer ${process.env.AMCTL_TOKEN}`}})
  const page = await res.body.json()
  let chunk = ''
  for (const item of page.items) {
    chunk += (first ? '' : ',') + JSON.stringify(item)
    first = false
  }
  await write(chunk)
  cursor = page.nextCursor
} while (cursor)
await write(']}\n')
