// Floor of `amctl runs list --json --limit 50` and `amctl orgs summary --json`: a bare Node
// script making the same request with node:http (CommonJS, no dependency), writing the body to
// stdout.   node bench/floor-http.cjs URL TOKEN
const http = require('node:http')

const [url, token] = process.argv.slice(2)
http
  .get(url, {headers: {authorization: `Bearer ${token}`, accept: 'application/json'}}, (res) => {
    const chunks = []
    res.on('data', (chunk) => chunks.push(chunk))
    res.on('end', () => {
      process.stdout.write(`${Buffer.concat(chunks).toString('utf8')}\n`)
      if (res.statusCode !== 200) process.exitCode = 1
    })
  })
  .on('error', (error) => {
    process.stderr.write(`${error.message}\n`)
    process.exitCode = 1
  })
