// blvl view's page (docs/VIEW.md). It reads the level's verification as it happens from
// /level/events (one JSON object a line), asks for the glTF export (/level/level.glb) as soon
// as the geometry section has been checked, and draws it with three.js. Errors and the time of
// the first frame go back to the server (/report), which prints them. Strings from the level
// are shown with textContent only: a level is hostile input.
import * as THREE from 'three';
import { GLTFLoader } from '/three/loaders/GLTFLoader.js';

const params = new URLSearchParams(location.search);
// this run's token: /report and /level/* answer 403 without it (docs/VIEW.md, "Who may ask")
const token = params.get('t') || '';
// performance.now() counts from the navigation's start: the times reported are from there
const marks = { module: performance.now() };

function report(kind, text) {
  const q = 'kind=' + kind + '&text=' + encodeURIComponent(String(text).slice(0, 800)) +
    '&t=' + encodeURIComponent(token);
  fetch('/report?' + q).catch(() => {});
}
window.addEventListener('error', (e) => {
  report('error', (e.message || 'resource failed: ' + (e.target && (e.target.src || e.target.href))) +
    (e.filename ? ' at ' + e.filename + ':' + e.lineno : ''));
}, true);
window.addEventListener('unhandledrejection', (e) => {
  report('error', 'unhandled rejection: ' + ((e.reason && e.reason.message) || e.reason));
});
const consoleError = console.error.bind(console);
console.error = (...args) => { report('error', args.join(' ')); consoleError(...args); };

const $ = (id) => document.getElementById(id);
const status = (text) => { $('status').textContent = text; };
const bar = (f) => { $('fill').style.width = (Math.max(0, Math.min(1, f)) * 100).toFixed(1) + '%'; };
if (params.get('panel') === '0') $('panel').classList.add('hidden');

// ---- renderer, scene, fly camera -------------------------------------------------------------
const canvas = $('view');
// No antialiasing and no preserved drawing buffer: both cost a copy of every frame on a
// software GL (SwiftShader), and the screenshots need neither.
const renderer = new THREE.WebGLRenderer({ canvas, antialias: false });
renderer.setPixelRatio(1);
marks.webgl = performance.now(); // WebGL has started (a software GL takes seconds)
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x202028);
const camera = new THREE.PerspectiveCamera(60, 1, 0.01, 2000);
let yaw = 0, pitch = 0, speed = 5, dirty = true;

function resize() {
  const w = canvas.clientWidth || window.innerWidth, h = canvas.clientHeight || window.innerHeight;
  renderer.setSize(w, h, false);
  camera.aspect = w / Math.max(1, h);
  camera.updateProjectionMatrix();
  dirty = true;
}
window.addEventListener('resize', resize);
resize();

function applyLook() {
  camera.quaternion.setFromEuler(new THREE.Euler(pitch, yaw, 0, 'YXZ'));
  dirty = true;
}

const keys = new Set();
window.addEventListener('keydown', (e) => { if (e.target.tagName !== 'SELECT') keys.add(e.code); });
window.addEventListener('keyup', (e) => keys.delete(e.code));
window.addEventListener('blur', () => keys.clear());
let drag = null;
canvas.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY, moved: 0 }; });
window.addEventListener('pointermove', (e) => {
  if (!drag) return;
  const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
  drag.x = e.clientX; drag.y = e.clientY; drag.moved += Math.abs(dx) + Math.abs(dy);
  yaw -= dx * 0.004;
  pitch = Math.max(-1.55, Math.min(1.55, pitch - dy * 0.004));
  applyLook();
  $('cameras').value = '';
});
window.addEventListener('pointerup', (e) => {
  if (drag && drag.moved < 4 && e.target === canvas) pick(e.clientX, e.clientY);
  drag = null;
});

function fly(dt) {
  if (!keys.size) return;
  const v = new THREE.Vector3();
  if (keys.has('KeyW')) v.z -= 1;
  if (keys.has('KeyS')) v.z += 1;
  if (keys.has('KeyA')) v.x -= 1;
  if (keys.has('KeyD')) v.x += 1;
  if (keys.has('KeyE')) v.y += 1;
  if (keys.has('KeyQ')) v.y -= 1;
  if (!v.lengthSq()) return;
  v.normalize().multiplyScalar(speed * dt * (keys.has('ShiftLeft') || keys.has('ShiftRight') ? 4 : 1));
  v.applyQuaternion(camera.quaternion);
  camera.position.add(v);
  dirty = true;
}

// ---- the level's parts ---------------------------------------------------------------------
// The .glb is fetched and parsed while the file is verified, but drawn only once the server
// has reported the geometry section good: nothing of the level shows before it is checked.
function deferred() {
  let resolve, reject;
  const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}
const geometryVerdict = deferred();
const progress = { verify: 0, download: 0 };
const showProgress = () => bar(0.45 * progress.verify + 0.45 * progress.download);
const state = { size: 0, sections: 0, verified: 0, bad: [],
                gltf: null, level: null, collision: null, acoustics: null, rooms: [],
                markers: new THREE.Group(), cams: [] };
scene.add(state.markers);
const shading = { lit: new Map(), unlit: new Map() }; // mesh -> material of that mode

function section(ev) {
  const li = document.createElement('li');
  li.className = ev.ok ? 'ok' : 'bad';
  li.textContent = ev.tag + (ev.ok ? ' ✓ ' : ' ✗ ') + (ev.ok ? ev.size + ' B' : ev.error);
  $('sections').appendChild(li);
  state.verified++;
  if (!ev.ok) state.bad.push(ev.tag + ': ' + ev.error);
  if (ev.tag === 'geometry') {
    marks.geometry = performance.now();
    if (ev.ok) geometryVerdict.resolve();
    else geometryVerdict.reject(new Error('the geometry section is bad: ' + ev.error));
  }
  if (ev.tag === 'sim' && ev.ok) $('collision').disabled = false;
}

function onEvent(ev) {
  switch (ev.event) {
    case 'file':
      state.size = ev.size;
      $('title').textContent = ev.name;
      document.title = ev.name + ' · blvl view';
      status('verifying 0 of ' + ev.size + ' bytes');
      break;
    case 'table': state.sections = ev.count; break;
    case 'progress':
      progress.verify = ev.offset / Math.max(1, state.size);
      showProgress();
      status('verified ' + state.verified + ' of ' + state.sections + ' sections');
      break;
    case 'section': section(ev); break;
    case 'end':
      status(state.bad.length ? 'verified, bad: ' + state.bad.join('; ') : 'verified ' + state.verified + ' sections');
      break;
    case 'refused':
      status('refused: ' + ev.error);
      report('note', 'level refused: ' + ev.error);
      geometryVerdict.reject(new Error('the level is refused: ' + ev.error));
      break;
  }
}

// index.html asked for both answers before three.js loaded (the .glb through a worker).
const early = window.blvlEarly || {};
early.onProgress = (got, total) => { progress.download = got / total; showProgress(); };

async function streamEvents() {
  const res = await (early.events || fetch('/level/events?t=' + encodeURIComponent(token)));
  if (res.status === 403)
    throw new Error(token ? 'this page is not the one this run of blvl view served: open the URL it printed'
                          : 'no token: open the URL blvl view printed (it ends in ?t=...)');
  if (!res.ok) throw new Error('/level/events: ' + res.status);
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line) onEvent(JSON.parse(line));
    }
  }
  // a level without a geometry section: its markers and colliders once all of it is checked
  if (!state.bad.length) geometryVerdict.resolve();
  else geometryVerdict.reject(new Error('bad sections: ' + state.bad.join('; ')));
}

// ---- textures: after the first frame -------------------------------------------------------
// GLTFLoader would decode every image before it hands over the scene. This plugin gives each
// embedded texture a white 1 x 1 stand-in at once (so the materials, and their shader, are the
// final ones), and lateTextures() decodes the images off the main thread (createImageBitmap)
// once the level is on the screen, each swapped in as it is ready.
let whiteSource = null;
function standIn() {
  if (!whiteSource) {
    const c = document.createElement('canvas');
    c.width = c.height = 1;
    const g = c.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 1, 1);
    whiteSource = new THREE.Source(c);
  }
  return whiteSource;
}
const FILTERS = { 9728: THREE.NearestFilter, 9729: THREE.LinearFilter, 9984: THREE.NearestMipmapNearestFilter,
                  9985: THREE.LinearMipmapNearestFilter, 9986: THREE.NearestMipmapLinearFilter,
                  9987: THREE.LinearMipmapLinearFilter };
const WRAPS = { 33071: THREE.ClampToEdgeWrapping, 33648: THREE.MirroredRepeatWrapping, 10497: THREE.RepeatWrapping };
class LateTextures {
  constructor(parser) { this.parser = parser; this.name = 'blvl_late_textures'; }
  loadTexture(index) {
    const json = this.parser.json, def = json.textures[index];
    const img = json.images && json.images[def.source];
    if (!img || img.bufferView === undefined) return null; // anything else: GLTFLoader's way
    const t = new THREE.Texture();
    t.source = standIn();
    t.flipY = false; // glTF's convention, as GLTFLoader sets it
    t.name = def.name || img.name || '';
    const s = (json.samplers || [])[def.sampler] || {};
    t.magFilter = FILTERS[s.magFilter] || THREE.LinearFilter;
    t.minFilter = FILTERS[s.minFilter] || THREE.LinearMipmapLinearFilter;
    t.wrapS = WRAPS[s.wrapS] || THREE.RepeatWrapping;
    t.wrapT = WRAPS[s.wrapT] || THREE.RepeatWrapping;
    t.userData.blvlLate = def.source; // copied by clone(): every use of it is found again
    t.needsUpdate = true;
    return Promise.resolve(t);
  }
}

// The stand-ins of image `image` in every material, replaced by textures of `source`: a new
// texture object each (three allocates its GL texture anew; the program stays the same).
function swapIn(image, source) {
  const made = new Map();
  const visit = (m) => {
    for (const slot of ['map', 'lightMap']) {
      const t = m && m[slot];
      if (!t || t.userData.blvlLate !== image) continue;
      if (!made.has(t)) {
        const r = t.clone();
        r.source = source;
        delete r.userData.blvlLate;
        r.needsUpdate = true;
        made.set(t, r);
      }
      m[slot] = made.get(t);
    }
  };
  for (const mode of [shading.lit, shading.unlit]) for (const m of mode.values()) visit(m);
  for (const mesh of shading.lit.keys()) visit(mesh.userData.source);
  for (const t of made.keys()) t.dispose();
  dirty = true;
}

async function lateTextures(parser) {
  const images = parser.json.images || [];
  await Promise.all(images.map(async (img, i) => {
    if (img.bufferView === undefined) return;
    const bytes = await parser.getDependency('bufferView', img.bufferView);
    const bmp = await createImageBitmap(new Blob([bytes], { type: img.mimeType }),
                                        { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    swapIn(i, new THREE.Source(bmp));
  }));
}

// ---- shading: lightmapped or unlit, from the export's extras (docs/EXPORT.md) -------------
const lightmapPages = new Map();
function lightmapPage(tex, lm) {
  const key = lm.texture + ':' + lm.layer;
  if (!lightmapPages.has(key)) {
    const t = tex.clone();
    t.channel = lm.texCoord; // TEXCOORD_1 is three's uv1
    const layers = Math.max(1, lm.layers | 0);
    t.repeat.set(1, 1 / layers);
    t.offset.set(0, (lm.layer | 0) / layers);
    t.colorSpace = lm.encoding === 'gamma8' ? THREE.SRGBColorSpace : THREE.LinearSRGBColorSpace;
    t.needsUpdate = true;
    lightmapPages.set(key, t);
  }
  return lightmapPages.get(key);
}

function basicFrom(m) {
  return new THREE.MeshBasicMaterial({
    name: m.name, map: m.map || null, color: m.color ? m.color.clone() : 0xffffff,
    vertexColors: !!m.vertexColors, transparent: m.transparent, opacity: m.opacity,
    alphaTest: m.alphaTest, side: m.side, depthWrite: m.depthWrite,
  });
}

async function prepareShading(parser) {
  const meshes = [];
  state.level.traverse((o) => { if (o.isMesh) meshes.push(o); });
  for (const mesh of meshes) {
    const orig = mesh.material;
    mesh.userData.source = orig;
    const unlit = basicFrom(orig);
    let lit = unlit;
    const lm = mesh.geometry.userData.blvl && mesh.geometry.userData.blvl.lightmap;
    if (lm && Number.isInteger(lm.texture)) {
      const tex = await parser.getDependency('texture', lm.texture);
      lit = basicFrom(orig);
      lit.lightMap = lightmapPage(tex, lm);
      lit.lightMapIntensity = (Number(lm.gain) || 1) * Math.PI; // three divides by pi
      lit.vertexColors = false; // the lightmap is the lighting here
    }
    shading.unlit.set(mesh, unlit);
    shading.lit.set(mesh, lit);
  }
}

// The first frame in one simple shader: every mesh of the level in its vertex colours, both
// faces, no markers. A software GL (SwiftShader) compiles each shader on its first draw, about
// 0.2 s apiece on this machine, and a level's materials, lightmaps and markers need ten or
// more; they come with the next frame (applyShading).
function firstLook() {
  const coloured = new THREE.MeshBasicMaterial({ vertexColors: true, side: THREE.DoubleSide });
  const plain = new THREE.MeshBasicMaterial({ side: THREE.DoubleSide });
  for (const mesh of shading.lit.keys()) mesh.material = mesh.geometry.hasAttribute('color') ? coloured : plain;
  state.markers.visible = false;
  dirty = true;
}

function applyShading() {
  const mode = $('lit').checked ? shading.lit : shading.unlit;
  for (const [mesh, m] of mode) mesh.material = m;
  dirty = true;
}

// ---- markers: spawns, teleport destinations, triggers, hurt volumes, sites ---------------
const markerColour = { spawn: 0x40e040, teleport_dest: 0x40e0e0, trigger: 0xffd000,
                       hurt_volume: 0xff3030, site: 0xff40ff };
function addMarkers() {
  const cone = new THREE.ConeGeometry(0.25, 0.6, 8).rotateX(-Math.PI / 2); // points down -Z
  const box = new THREE.EdgesGeometry(new THREE.BoxGeometry(2, 2, 2));
  state.level.updateMatrixWorld(true);
  state.level.traverse((node) => {
    const b = node.userData && node.userData.blvl;
    if (!b || !(b.kind in markerColour)) return;
    const colour = markerColour[b.kind];
    let m;
    if (b.kind === 'spawn' || b.kind === 'teleport_dest') {
      m = new THREE.Mesh(cone, new THREE.MeshBasicMaterial({ color: colour }));
    } else {
      m = new THREE.LineSegments(box, new THREE.LineBasicMaterial({ color: colour }));
    }
    m.matrixAutoUpdate = false;
    m.matrix.copy(node.matrixWorld);
    m.userData.marker = b;
    state.markers.add(m);
  });
  state.markers.visible = false; // shown from the second frame (firstLook)
}

// ---- cameras ---------------------------------------------------------------------------------
function addCameras() {
  state.level.updateMatrixWorld(true);
  state.level.traverse((o) => { if (o.isCamera) state.cams.push(o); });
  state.cams.forEach((c, i) => {
    const opt = document.createElement('option');
    opt.value = String(i);
    opt.textContent = (c.name || 'camera ' + i);
    $('cameras').appendChild(opt);
  });
}

function useCamera(i) {
  const c = state.cams[i];
  if (!c) return;
  const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
  c.matrixWorld.decompose(p, q, s);
  camera.position.copy(p);
  const e = new THREE.Euler().setFromQuaternion(q, 'YXZ');
  yaw = e.y; pitch = e.x;
  camera.quaternion.copy(q);
  if (c.isPerspectiveCamera) { camera.fov = c.fov; camera.updateProjectionMatrix(); }
  $('cameras').value = String(i);
  dirty = true;
}
$('cameras').addEventListener('change', (e) => {
  if (e.target.value !== '') useCamera(Number(e.target.value));
});

function frameAll() {
  const box = new THREE.Box3().setFromObject(state.level);
  if (box.isEmpty()) return;
  const c = box.getCenter(new THREE.Vector3()), r = box.getSize(new THREE.Vector3()).length() / 2;
  camera.position.copy(c).add(new THREE.Vector3(0, r * 0.5, r * 1.2));
  yaw = 0; pitch = -0.4;
  applyLook();
}

// ---- the collision overlay ---------------------------------------------------------------
function prepareCollision() {
  if (!state.collision) { $('collision').disabled = true; return; }
  const mat = new THREE.MeshBasicMaterial({ color: 0xff7a00, transparent: true, opacity: 0.5,
                                            side: THREE.DoubleSide, depthWrite: false });
  const edge = new THREE.LineBasicMaterial({ color: 0xffb060 });
  const add = [];
  state.collision.traverse((o) => {
    if (!o.isMesh) return;
    o.material = mat;
    add.push([o, new THREE.LineSegments(new THREE.EdgesGeometry(o.geometry, 20), edge)]);
  });
  for (const [o, l] of add) o.add(l);
  state.collision.visible = $('collision').checked;
  scene.add(state.collision);
}

// ---- the acoustics overlay -----------------------------------------------------------------
// The export's `acoustics` scene (docs/EXPORT.md, "Acoustics"): the probes as points in their
// room's colour (COLOR_0), the edges as lines, door lines in their door's colour; the narrow
// edges, a primitive of their own there (glTF has no dashes), are drawn dashed here.
function prepareAcoustics() {
  if (!state.acoustics) { $('acoustics').disabled = true; return; }
  $('acoustics').disabled = false;
  const count = { probes: 0, lines: 0, dashed: 0, door_lines: 0, rooms: 0 };
  const swap = [];
  state.acoustics.traverse((o) => {
    const x = o.userData.blvl;
    if (x && x.kind === 'acoustic-probes') {
      state.rooms = x.rooms || [];
      count.rooms = state.rooms.length;
    }
    if (o.isPoints) {
      o.material = new THREE.PointsMaterial({ size: 9, sizeAttenuation: false, vertexColors: true });
      count.probes += o.geometry.attributes.position.count;
    } else if (o.isLineSegments) {
      swap.push(o);
    }
  });
  for (const o of swap) {
    const narrow = !!(o.geometry.userData.blvl && o.geometry.userData.blvl.narrow);
    const n = o.geometry.attributes.position.count / 2;
    const c = o.geometry.attributes.color;
    for (let i = 0; c && i < n; i++)
      if (Math.abs(c.getX(2 * i) - 0.5) > 1e-3 || Math.abs(c.getY(2 * i) - 0.5) > 1e-3 || Math.abs(c.getZ(2 * i) - 0.5) > 1e-3) count.door_lines++;
    count.lines += n;
    if (narrow) {
      // the dashes are measured along each line in world units (metres): 0.25 m on, 0.2 m off
      o.material = new THREE.LineDashedMaterial({ vertexColors: true, dashSize: 0.25, gapSize: 0.2 });
      o.computeLineDistances();
      count.dashed += n;
    } else {
      o.material = new THREE.LineBasicMaterial({ vertexColors: true });
    }
  }
  state.acoustics.visible = false; // shown from the second frame, as the markers (firstLook)
  scene.add(state.acoustics);
  report('note', 'acoustics: ' + Object.entries(count).map(([k, v]) => k + '=' + v).join(' '));
}

// The probe a click lands on (its dot within 6 pixels of the click), nearer than `limit`
// metres; its index, room and the room's figures as lines for the panel, or null.
function pickProbe(limit) {
  if (!state.acoustics || !$('acoustics').checked) return null;
  // every probe in front of the eye, then the one seen closest to the click: the angle a pixel
  // spans is the same at any distance, a world-space threshold is not
  raycaster.params.Points.threshold = Infinity;
  const perPixel = 2 * Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2) / Math.max(1, canvas.clientHeight);
  let best = null, bestAngle = 6 * perPixel;
  state.acoustics.traverse((o) => {
    if (!o.isPoints) return;
    for (const h of raycaster.intersectObject(o, false)) {
      const angle = h.distanceToRay / Math.max(h.distance, 1e-6);
      if (h.distance > limit || angle > bestAngle + 1e-9) continue;
      if (best && Math.abs(angle - bestAngle) <= 1e-9 && h.distance >= best.distance) continue;
      best = h;
      bestAngle = angle;
    }
  });
  raycaster.params.Points.threshold = 1;
  if (!best) return null;
  const g = best.object.geometry, i = best.index;
  const room = g.attributes._room ? g.attributes._room.getX(i) : undefined;
  const r = state.rooms[room] || {};
  const p = new THREE.Vector3().fromBufferAttribute(g.attributes.position, i);
  const lines = ['probe ' + i + ' at ' + p.toArray().map((v) => (v / 0.0254).toFixed(0)).join(' ') + ' (units)'];
  lines.push('room ' + room + ': rt60 ' + (r.rt60_s ?? '?') + ' s, damping ' + (r.damping ?? '?') +
             ', ' + (r.outdoor ? 'outdoor' : 'indoor'));
  return lines;
}

// ---- picking -------------------------------------------------------------------------------
const raycaster = new THREE.Raycaster();
function runAt(runs, tri) {
  let best = null;
  for (const r of runs || []) if (r.first_triangle <= tri && (!best || r.first_triangle >= best.first_triangle)) best = r;
  return best;
}

// The first triangle of each batch in the level's indices: its primitive's index accessor
// starts there in the one index view (docs/EXPORT.md), the symbols' runs count from there.
function batchStarts(json) {
  const m = new Map();
  for (const mesh of json.meshes || []) {
    for (const p of mesh.primitives || []) {
      const b = p.extras && p.extras.blvl && p.extras.blvl.batch;
      const a = json.accessors && json.accessors[p.indices];
      if (Number.isInteger(b) && a) m.set(b, ((a.byteOffset || 0) / 12) | 0);
    }
  }
  return m;
}

function pick(x, y) {
  if (!state.level) return;
  const r = canvas.getBoundingClientRect();
  raycaster.setFromCamera(new THREE.Vector2((x - r.left) / r.width * 2 - 1, -((y - r.top) / r.height) * 2 + 1), camera);
  const lines = [];
  const hit = raycaster.intersectObject(state.level, true).find((h) => h.object.isMesh);
  const probe = pickProbe(hit ? hit.distance + 0.1 : Infinity);
  if (probe) lines.push(...probe);
  if (hit) {
    const mesh = hit.object, src = mesh.userData.source || mesh.material;
    const pb = mesh.geometry.userData.blvl || {};
    const mb = (src.userData && src.userData.blvl) || {};
    lines.push('surface at ' + hit.point.toArray().map((v) => (v / 0.0254).toFixed(0)).join(' ') + ' (units)');
    lines.push('material ' + (mb.material ?? '?') + ': ' + (src.name || '(unnamed)'));
    const flags = ['blend', 'alpha_test', 'sky', 'water', 'lightmapped'].filter((k) => k in mb).map((k) => k + '=' + mb[k]);
    if (flags.length) lines.push('  ' + flags.join(' '));
    if (mb.surface_params && mb.surface_params.length) lines.push('  surface ' + mb.surface_params.join(' '));
    lines.push('batch ' + (pb.batch ?? '?'));
    const first = state.batchFirst.get(pb.batch);
    if (pb.symbols && first !== undefined) {
      const run = runAt(pb.symbols, first + hit.faceIndex);
      if (run && run.kind) {
        lines.push('source: ' + run.kind + ' ' + run.index + (run.entity !== undefined ? ' of entity ' + run.entity : ''));
        if (run.material || run.shader) lines.push('  as ' + (run.shader || run.material));
        if (run.contents_flags || run.surface_flags) lines.push('  contents ' + run.contents_flags + ' surface ' + run.surface_flags);
      }
    }
  } else {
    lines.push('nothing there');
  }
  if (state.collision) {
    const ch = raycaster.intersectObject(state.collision, true).find((h) => h.object.isMesh &&
      (!hit || h.distance <= hit.distance + 0.1));
    if (ch) {
      let n = ch.object;
      while (n && !(n.userData.blvl && n.userData.blvl.kind === 'collider')) n = n.parent;
      const cb = n ? n.userData.blvl : {};
      lines.push('collider ' + cb.index + ' flags ' + (cb.flags ?? 0) + (cb.flag_names && cb.flag_names.length ? ' (' + cb.flag_names.join(', ') + ')' : ''));
      if (cb.material !== undefined) lines.push('  material ' + cb.material);
      if (cb.source) lines.push('  source ' + [cb.source.kind, cb.source.name, cb.source.entity].filter((v) => v !== undefined).join(' '));
      if (cb.symbols) lines.push('  from ' + JSON.stringify(cb.symbols));
    }
  }
  $('pick').textContent = lines.join('\n');
}

// ---- loading -----------------------------------------------------------------------------
// The buffer views the download worker cut out of the .glb (fetch-glb.js), handed to
// GLTFLoader as they are: it would otherwise copy each out of one copy of the binary chunk.
class ViewBuffers {
  constructor(views) { this.views = views; this.name = 'blvl_view_buffers'; }
  loadBufferView(index) {
    const v = this.views[index];
    return v ? Promise.resolve(v) : Promise.reject(new Error('buffer view ' + index + ' was not kept'));
  }
}

async function fetchGlb() {
  if (!early.glb) throw new Error('index.html did not start the download');
  const { json, views, bytes, at } = await early.glb;
  progress.download = 1;
  marks.downloaded = at - performance.timeOrigin;
  marks.fetched = performance.now();
  const gltf = await new GLTFLoader().register((p) => new LateTextures(p))
    .register(() => new ViewBuffers(views)).parseAsync(json, '');
  marks.parsed = performance.now();
  return { gltf, bytes };
}

async function loadGlb() {
  const glb = fetchGlb();
  glb.catch(() => {}); // reported below, once the verdict is in
  await geometryVerdict.promise;
  status('loading the geometry');
  const { gltf, bytes } = await glb;
  state.gltf = gltf;
  state.batchFirst = batchStarts(gltf.parser.json);
  state.level = gltf.scenes[0] || gltf.scene;
  state.collision = gltf.scenes.find((s) => s.name === 'collision') || null;
  state.acoustics = gltf.scenes.find((s) => s.name === 'acoustics') || null;
  scene.add(state.level);
  await prepareShading(gltf.parser);
  firstLook();
  addMarkers();
  addCameras();
  prepareCollision();
  prepareAcoustics();
  speed = Math.max(1, new THREE.Box3().setFromObject(state.level).getSize(new THREE.Vector3()).length() / 12);
  const want = params.get('camera');
  if (state.cams.length && want !== 'none') useCamera(Math.min(state.cams.length - 1, Number(want) || 0));
  else frameAll();
  bar(1);
  dirty = true;
  // the first frame with the level in it: rendered by the next animation frame
  requestAnimationFrame(() => {
    render();
    renderer.getContext().finish(); // the frame's drawing done, not only queued
    marks.first_frame = performance.now();
    status('ready: ' + marks.first_frame.toFixed(0) + ' ms to the first frame');
    // ?pick=FX,FY: a click at that fraction of the view, its answer reported (the tests)
    const at = (params.get('pick') || '').split(',').map(Number);
    if (at.length === 2 && at.every((v) => v >= 0 && v <= 1)) {
      const r = canvas.getBoundingClientRect();
      pick(r.left + at[0] * r.width, r.top + at[1] * r.height);
      report('note', 'pick: ' + $('pick').textContent.replace(/\n/g, ' | '));
    }
    report('ready', Object.entries(marks).map(([k, v]) => k + '_ms=' + v.toFixed(0)).join(' ') +
      ' glb_bytes=' + bytes);
    // the level's own materials and the markers: the next frame, its shaders compiled then
    applyShading();
    state.markers.visible = $('markers').checked;
    if (state.acoustics) state.acoustics.visible = $('acoustics').checked;
    requestAnimationFrame(() => {
      render();
      renderer.getContext().finish();
      report('note', 'materials_ms=' + performance.now().toFixed(0));
    });
    lateTextures(gltf.parser).then(() => {
      report('note', 'textures_ms=' + performance.now().toFixed(0));
    }, (e) => report('error', 'textures: ' + e.message));
  });
}

$('lit').addEventListener('change', applyShading);
$('collision').addEventListener('change', (e) => { if (state.collision) state.collision.visible = e.target.checked; dirty = true; });
$('markers').addEventListener('change', (e) => { state.markers.visible = e.target.checked; dirty = true; });
$('acoustics').addEventListener('change', (e) => { if (state.acoustics) state.acoustics.visible = e.target.checked; dirty = true; });
if (params.get('acoustics') === '1') $('acoustics').checked = true;
if (params.get('shading') === 'unlit') $('lit').checked = false;
if (params.get('collision') === '1') $('collision').checked = true;
if (params.get('markers') === '0') $('markers').checked = false;

function render() { renderer.render(scene, camera); dirty = false; }
let last = performance.now();
function tick(now) {
  fly(Math.min(0.1, (now - last) / 1000));
  last = now;
  if (dirty) render();
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);
applyLook();

streamEvents().catch((e) => { status('failed: ' + e.message); report('error', e.message); });
loadGlb().catch((e) => {
  status('not drawn: ' + e.message);
  // a bad or refused level is the level's fault, not the page's: a note, not an error
  report(state.bad.length || /refused/.test(e.message) ? 'note' : 'error', e.message);
});
