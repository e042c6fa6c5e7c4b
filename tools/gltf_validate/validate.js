// Validates glTF files with the Khronos glTF-Validator (npm gltf-validator) and prints, per
// file, one line: "FILE errors N warnings N infos N hints N", then one line per error and
// warning: "  SEVERITY CODE POINTER MESSAGE". Exit status 1 when any file has an error.
//   node validate.js FILE.glb|FILE.gltf...
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

const severities = ['error', 'warning', 'info', 'hint'];

async function one(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const dir = path.dirname(file);
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        fs.readFile(path.join(dir, decodeURIComponent(uri)), (err, data) =>
          err ? reject(err.toString()) : resolve(new Uint8Array(data)));
      }),
  });
  const s = report.issues;
  console.log(`${file} errors ${s.numErrors} warnings ${s.numWarnings} infos ${s.numInfos} ` +
              `hints ${s.numHints}`);
  for (const m of s.messages) {
    if (m.severity <= 1)
      console.log(`  ${severities[m.severity]} ${m.code} ${m.pointer || '-'} ${m.message}`);
  }
  if (process.env.BLVL_GLTF_INFOS)
    for (const m of s.messages)
      if (m.severity > 1)
        console.log(`  ${severities[m.severity]} ${m.code} ${m.pointer || '-'} ${m.message}`);
  return s.numErrors;
}

(async () => {
  let errors = 0;
  for (const f of process.argv.slice(2)) {
    try {
      errors += await one(f);
    } catch (e) {
      console.log(`${f} errors 1 (validator failed: ${e})`);
      errors++;
    }
  }
  process.exit(errors ? 1 : 0);
})();
