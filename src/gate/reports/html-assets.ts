/**
 * The style and the script of the HTML report (./html.ts), inline in every page and allowed by
 * their hashes in its Content-Security-Policy (so they are constants: the same text, the same
 * hash). The script is plain ES2017 for any current browser, and reads only the page's JSON block.
 */

/**
 * Light and dark by the system's setting (`prefers-color-scheme`), the system's fonts (none is
 * fetched), and a print style: the charts whole on a page each, the controls gone, the table
 * whole (the script puts every row in before printing) with its header on every page.
 */
export const REPORT_STYLE = `
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--grid:#eef1f4;--base:#0969da;--hist:#57606a;--step:#bf3989;--fail:#cf222e;--cancel:#6e7781;--sd:rgba(9,105,218,.12);--bar:#9a6700;--change:#8250df;--pass:#1a7f37;--warn:#9a6700;--focus:#0969da}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--grid:#21262d;--base:#4493f8;--hist:#9198a1;--step:#f778ba;--fail:#ff7b72;--cancel:#9198a1;--sd:rgba(68,147,248,.18);--bar:#d29922;--change:#ab7df8;--pass:#3fb950;--warn:#d29922;--focus:#4493f8}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Liberation Sans",sans-serif}
main{max-width:1180px;margin:0 auto;padding:16px 24px 48px}
h1{font-size:1.5rem;margin:.5rem 0}
h2{font-size:1.15rem;margin:1.75rem 0 .5rem;overflow-wrap:anywhere}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.tone.pass{color:var(--pass)}.tone.fail{color:var(--fail)}.tone.warn{color:var(--warn)}
header p{margin:.25rem 0;color:var(--muted)}
dl{margin:.5rem 0;display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}
dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
.facts{font-size:.9rem}
.legend{list-style:none;padding:0;margin:1rem 0;display:flex;flex-wrap:wrap;gap:4px 20px;font-size:.85rem;color:var(--muted)}
.legend li{display:flex;align-items:center;gap:6px}
.swatch{width:24px;height:16px;flex:none}
.pair{display:grid;grid-template-columns:minmax(0,720px) minmax(220px,1fr);gap:16px;align-items:start}
@media (max-width:900px){.pair{grid-template-columns:1fr}}
figure{margin:0}
figcaption{font-size:.85rem;color:var(--muted)}
figcaption p{margin:.25rem 0}
.chart{width:100%;height:auto;display:block}
.chart text{fill:var(--muted);font-size:12px}
.chart .label{fill:var(--fg)}
.chart .note{fill:var(--change);font-size:12px}
.grid{stroke:var(--grid);stroke-width:1}
.axis{stroke:var(--line);stroke-width:1.5}
.sd{fill:var(--sd)}
.mean{stroke:var(--base);stroke-width:1.5}
.bar{stroke:var(--bar);stroke-width:1.5;stroke-dasharray:6 4}
.change{stroke:var(--change);stroke-width:1.5;stroke-dasharray:3 3}
.level{stroke:var(--change);stroke-width:2;opacity:.7}
.stepmean{stroke:var(--step);stroke-width:2.5}
.p.b{fill:var(--base);fill-opacity:.8}
.p.h{fill:var(--hist);fill-opacity:.7}
.p.s{fill:var(--step);stroke:var(--bg);stroke-width:1}
.p.s.u{fill:none;stroke:var(--step);stroke-width:2.5}
.p.s.u.f{stroke:var(--fail)}
.m{fill:none;stroke-width:2}
.m.f{stroke:var(--fail)}
.m.c{stroke:var(--cancel)}
.verdict{border-left:3px solid var(--line);padding:0 0 0 12px;margin:0 0 12px}
.verdict p{margin:0}
.verdict .tone{font-weight:600}
.verdict .of{color:var(--muted);font-size:.85rem;overflow-wrap:anywhere}
.verdict .why{font-size:.9rem}
.verdict dl{font-size:.85rem}
.controls{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:.5rem 0}
select,button,input{font:inherit;color:inherit}
select{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:2px 6px;max-width:100%}
.check{display:flex;gap:6px;align-items:center}
table{border-collapse:collapse;width:100%;font-size:.9rem}
caption{text-align:left;color:var(--muted);padding:4px 0}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);overflow-wrap:anywhere}
td.n{text-align:right;font-variant-numeric:tabular-nums}
th button{background:none;border:0;padding:0;font-weight:600;cursor:pointer}
th[aria-sort=ascending] button::after{content:" \\25B2" / ""}
th[aria-sort=descending] button::after{content:" \\25BC" / ""}
a{color:var(--base)}
button:focus-visible,select:focus-visible,input:focus-visible,a:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
.pager{margin:.5rem 0;display:flex;gap:12px;align-items:center}
.pager button{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:2px 10px;cursor:pointer}
.pager button:disabled{opacity:.5;cursor:default}
.failed{color:var(--fail)}
@media print{
body{font-size:11pt;background:#fff;color:#000}
main{max-width:none;padding:0}
.controls,.pager{display:none}
.pair{grid-template-columns:1fr}
section.group{break-inside:avoid}
.chart{max-width:18cm}
thead{display:table-header-group}
tr{break-inside:avoid}
}
`.trim()

/**
 * The table of runs: made from the JSON block (`runs` as columns), sorted by a header's button
 * (again: the other way; `aria-sort` says which), filtered by group and by "failed or cancelled
 * only", 100 rows a page on screen and every row in print. A run's ID links to its page when the
 * report has a link template (`{id}` is its ID, URL-encoded).
 */
export const REPORT_SCRIPT = `
(function () {
  'use strict'
  var data = JSON.parse(document.getElementById('report-data').textContent)
  var R = data.runs
  var n = R.id.length
  var PAGE = 100
  var state = {key: 'created', dir: -1, page: 0, all: false}
  var body = document.querySelector('#runs tbody')
  var caption = document.getElementById('runs-count')
  var groupSelect = document.getElementById('group-filter')
  var failedBox = document.getElementById('failed-only')
  var prev = document.getElementById('prev')
  var next = document.getElementById('next')
  var pageText = document.getElementById('page')
  var failedStatus = data.statuses.map(function (s) { return s === 'failed' || s === 'cancelled' })
  var number = function (v) { return v === null ? -Infinity : v }
  var keys = {
    id: function (i) { return R.id[i] },
    group: function (i) { return data.groups[R.g[i]] },
    role: function (i) { return data.roles[R.r[i]] },
    status: function (i) { return data.statuses[R.st[i]] },
    score: function (i) { return number(R.s[i]) },
    created: function (i) { return number(R.t[i]) }
  }
  function compare(a, b) { return a < b ? -1 : a > b ? 1 : 0 }
  function rows() {
    var g = groupSelect.value === '' ? -1 : Number(groupSelect.value)
    var failed = failedBox.checked
    var out = []
    for (var i = 0; i < n; i++) {
      if (g >= 0 && R.g[i] !== g) continue
      if (failed && !failedStatus[R.st[i]]) continue
      out.push(i)
    }
    var get = keys[state.key]
    out.sort(function (a, b) { return state.dir * compare(get(a), get(b)) || a - b })
    return out
  }
  function cell(tr, text, cls) {
    var td = document.createElement('td')
    if (cls) td.className = cls
    td.textContent = text
    tr.appendChild(td)
    return td
  }
  function link(id) {
    if (!data.runUrl) return document.createTextNode(id)
    var a = document.createElement('a')
    a.href = data.runUrl.split('{id}').join(encodeURIComponent(id))
    a.textContent = id
    return a
  }
  function render() {
    var list = rows()
    var pages = Math.max(1, Math.ceil(list.length / PAGE))
    if (state.page >= pages) state.page = pages - 1
    var from = state.all ? 0 : state.page * PAGE
    var to = state.all ? list.length : Math.min(list.length, from + PAGE)
    var frag = document.createDocumentFragment()
    for (var k = from; k < to; k++) {
      var i = list[k]
      var tr = document.createElement('tr')
      tr.setAttribute('data-group', String(R.g[i]))
      var first = document.createElement('td')
      first.appendChild(link(R.id[i]))
      tr.appendChild(first)
      cell(tr, data.groups[R.g[i]])
      cell(tr, data.roles[R.r[i]])
      cell(tr, data.statuses[R.st[i]], failedStatus[R.st[i]] ? 'failed' : '')
      cell(tr, R.s[i] === null ? '\\u2014' : String(R.s[i]), 'n')
      cell(tr, R.t[i] === null ? '\\u2014' : new Date(R.t[i]).toISOString().slice(0, 19).replace('T', ' '))
      frag.appendChild(tr)
    }
    body.textContent = ''
    body.appendChild(frag)
    caption.textContent = list.length.toLocaleString('en-US') + ' of ' + n.toLocaleString('en-US') + ' runs' +
      (list.length > PAGE && !state.all ? ', ' + (from + 1) + '\\u2013' + to + ' shown' : '')
    pageText.textContent = 'page ' + (state.page + 1) + ' of ' + pages
    prev.disabled = state.page === 0
    next.disabled = state.page >= pages - 1
  }
  var headers = document.querySelectorAll('#runs th')
  Array.prototype.forEach.call(headers, function (th) {
    var button = th.querySelector('button')
    button.addEventListener('click', function () {
      var key = button.getAttribute('data-key')
      state.dir = state.key === key ? -state.dir : key === 'created' || key === 'score' ? -1 : 1
      state.key = key
      state.page = 0
      Array.prototype.forEach.call(headers, function (other) { other.setAttribute('aria-sort', 'none') })
      th.setAttribute('aria-sort', state.dir > 0 ? 'ascending' : 'descending')
      render()
    })
    if (button.getAttribute('data-key') === state.key) th.setAttribute('aria-sort', 'descending')
  })
  groupSelect.addEventListener('change', function () { state.page = 0; render() })
  failedBox.addEventListener('change', function () { state.page = 0; render() })
  prev.addEventListener('click', function () { state.page--; render() })
  next.addEventListener('click', function () { state.page++; render() })
  window.addEventListener('beforeprint', function () { state.all = true; render() })
  window.addEventListener('afterprint', function () { state.all = false; render() })
  render()
})()
`.trim()
