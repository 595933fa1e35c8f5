// The import map of a page that loads the real Firebase JS SDK's browser ESM build from a vendor
// folder served at /vendor/ (../shared/tools/js-client/README.md: never committed), for the
// local checks scripts/check_returning_browser.mjs and scripts/check_horizon_browser.mjs.
export const IMPORTS = {
  'firebase/app': '/vendor/firebase/app/dist/esm/index.esm.js',
  'firebase/firestore': '/vendor/firebase/firestore/dist/esm/index.esm.js',
  '@firebase/app': '/vendor/@firebase/app/dist/esm/index.esm.js',
  '@firebase/component': '/vendor/@firebase/component/dist/esm/index.esm.js',
  '@firebase/logger': '/vendor/@firebase/logger/dist/esm/index.esm.js',
  '@firebase/util': '/vendor/@firebase/util/dist/index.esm.js',
  '@firebase/firestore': '/vendor/@firebase/firestore/dist/index.esm.js',
  '@firebase/webchannel-wrapper/bloom-blob': '/vendor/@firebase/webchannel-wrapper/dist/bloom-blob/esm/bloom_blob_es2018.js',
  '@firebase/webchannel-wrapper/webchannel-blob': '/vendor/@firebase/webchannel-wrapper/dist/webchannel-blob/esm/webchannel_blob_es2018.js',
  idb: '/vendor/idb/build/index.js',
  tslib: '/vendor/tslib/tslib.es6.mjs',
};
