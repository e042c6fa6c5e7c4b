// blvl view's download of the level's .glb (docs/VIEW.md), in a worker started by index.html
// before anything else. Two reasons it is not done on the page's thread: a fetch read there
// stalls while that thread waits for WebGL to start (the browser stops reading a body nobody
// takes), and copying tens of megabytes there is slow (GLTFLoader copies the whole binary
// chunk and then each buffer view out of it). Here each byte is copied once, as it lands,
// into its own buffer view's ArrayBuffer; the page gets the JSON and those buffers
// (transferred, not copied) and hands them to GLTFLoader as they are.
// The page draws no normals or tangents, so their attributes are taken out of the JSON and
// their bytes are not kept.
// Messages: {progress, total} as bytes land, then {json, views, bytes, at} or {error}.
const CAP = 2 ** 31; // a .glb is under 4 GiB; past 2 GiB a page cannot hold it anyway
const JSON_CAP = 256 << 20;
const DROPPED = ['NORMAL', 'TANGENT'];

function fail(what) {
  throw new Error('/level/level.glb: ' + what);
}

// The JSON without normals and tangents; which buffer views are still needed.
function plan(json, binLength) {
  const views = json.bufferViews || [];
  const accessors = json.accessors || [];
  const dropped = new Set(), used = new Set();
  for (const mesh of json.meshes || []) {
    for (const p of mesh.primitives || []) {
      for (const [name, a] of Object.entries(p.attributes || {})) {
        (DROPPED.includes(name) ? dropped : used).add(a);
        if (DROPPED.includes(name)) delete p.attributes[name];
      }
      if (p.indices !== undefined) used.add(p.indices);
      for (const t of p.targets || []) for (const a of Object.values(t)) used.add(a);
    }
  }
  const keep = views.map(() => true);
  accessors.forEach((a, i) => {
    if (dropped.has(i) && !used.has(i) && Number.isInteger(a.bufferView)) keep[a.bufferView] = false;
  });
  accessors.forEach((a, i) => {
    if (!(dropped.has(i) && !used.has(i)) && Number.isInteger(a.bufferView)) keep[a.bufferView] = true;
  });
  const out = [];
  views.forEach((v, i) => {
    const off = v.byteOffset || 0, len = v.byteLength;
    if (v.buffer !== 0 || !Number.isInteger(off) || !Number.isInteger(len) || off < 0 || len < 0 ||
        off + len > binLength) fail('bufferViews[' + i + '] is outside the binary chunk');
    if (keep[i]) out.push({ i, start: off, end: off + len, bytes: new Uint8Array(len) });
  });
  out.sort((a, b) => a.start - b.start);
  return { views: out, count: views.length };
}

// The header and the JSON chunk from the first bytes, once they are all there: null until then
// (or, at the file's end, a file of a JSON chunk only).
function readHead(head, end) {
  if (head.length < 20) return null;
  const d = new DataView(head.buffer, head.byteOffset, head.length);
  if (d.getUint32(0, true) !== 0x46546c67 || d.getUint32(4, true) !== 2) fail('not a glTF 2 binary');
  const jlen = d.getUint32(12, true);
  if (d.getUint32(16, true) !== 0x4e4f534a || jlen > JSON_CAP) fail('no JSON chunk first');
  const json = () => JSON.parse(new TextDecoder().decode(head.subarray(20, 20 + jlen)));
  if (end && head.length === 20 + jlen) return { json: json(), binStart: head.length, binLength: 0 };
  if (head.length < 28 + jlen) return null;
  if (d.getUint32(24 + jlen, true) !== 0x004e4942) fail('no binary chunk after the JSON');
  return { json: json(), binStart: 28 + jlen, binLength: d.getUint32(20 + jlen, true) };
}

async function download() {
  // the page's token (?t=, docs/VIEW.md), handed to this worker in its own URL
  const t = new URLSearchParams(self.location.search).get('t') || '';
  const res = await fetch('/level/level.glb?t=' + encodeURIComponent(t));
  if (!res.ok) fail(res.status + ' ' + (await res.text()).slice(0, 300));
  const total = Number(res.headers.get('Content-Length')) || 0;
  if (total > CAP) fail(total + ' bytes, more than a page can hold');
  const reader = res.body.getReader();
  const parts = []; // the first pieces, until the header and the JSON are in
  let head = null, p = null, first = 0, got = 0, told = 0, headBytes = 0;
  const join = () => {
    const out = new Uint8Array(headBytes);
    let o = 0;
    for (const q of parts) { out.set(q, o); o += q.length; }
    return out;
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    let chunk = value, at = got; // `chunk` holds the file's bytes from `at`
    got += value.length;
    if (got > CAP || (total && got > total)) fail('longer than announced');
    if (!head) {
      parts.push(value);
      headBytes += value.length;
      if (headBytes < 20) continue;
      const jlen = new DataView(join().buffer).getUint32(12, true);
      if (jlen > JSON_CAP) fail('a JSON chunk of ' + jlen + ' bytes');
      if (headBytes < 28 + jlen) continue;
      const all = join();
      head = readHead(all, false);
      if (head.binStart + head.binLength > (total || CAP)) fail('the binary chunk runs past the file');
      p = plan(head.json, head.binLength);
      chunk = all.subarray(head.binStart);
      at = head.binStart;
      parts.length = 0;
    }
    // The chunk's bytes into every kept view they fall in (views sorted by their start).
    const lo = at - head.binStart, hi = lo + chunk.length;
    while (first < p.views.length && p.views[first].end <= lo) first++;
    for (let k = first; k < p.views.length && p.views[k].start < hi; k++) {
      const v = p.views[k];
      const a = Math.max(lo, v.start), b = Math.min(hi, v.end);
      if (a < b) v.bytes.set(chunk.subarray(a - lo, b - lo), a - v.start);
    }
    if (got - told >= 1 << 20) {
      told = got;
      self.postMessage({ progress: got, total });
    }
  }
  if (!head) { // a file of a header and a JSON chunk only
    head = readHead(join(), true);
    if (!head) fail('cut short before its JSON ends');
    p = plan(head.json, 0);
  }
  if (head.binStart + head.binLength > got || (total && got !== total)) fail(got + ' of ' + (total || head.binStart + head.binLength) + ' bytes');
  const views = new Array(p.count).fill(null);
  for (const v of p.views) views[v.i] = v.bytes.buffer;
  // when the last byte landed, on the clock of the page's navigation (the worker's own clock
  // starts when it does)
  const at = performance.timeOrigin + performance.now();
  self.postMessage({ json: head.json, views, bytes: got, at }, p.views.map((v) => v.bytes.buffer));
}

download().catch((e) => self.postMessage({ error: String((e && e.message) || e) }));
