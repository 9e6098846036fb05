// Floor of `amctl runs list --all --json` and of `amctl evals stats`: a minimal undici cursor loop
// over the same server (the same requests: the URL's query, such as `?limit=200`, or the server's
// page size, then the cursor it returns), writing every item ({"items":[…]}, compact) with
// back-pressure.
//   node bench/floor-paginate.mjs URL TOKEN
import {request} from 'undici'

const [url, token] = process.argv.slice(2)
const write = (text) => (process.stdout.write(text) ? undefined : new Promise((resolve) => process.stdout.once('drain', resolve)))
let cursor
let first = true
await write('{"items":[')
do {
  const target = new URL(url)
  if (cursor) target.searchParams.set('cursor', cursor)
  const res = await request(target, {headers: {authorization: `Bearer ${token}`}})
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${await res.body.text()}`)
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
