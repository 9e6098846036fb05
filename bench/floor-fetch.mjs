// Floor for `amctl runs list --json --limit 50`: a bare Node script doing one fetch of the same
// URL with the same Authorization header, writing the body to stdout.
const res = await fetch(process.argv[2], {headers: {authorization: `Bearer ${process.env.AMCTL_TOKEN}`}})
process.stdout.write(`${await res.text()}\n`)
