/** The catalog downloader's public surface, for `cpmx download` and `cpmx build --download`. */
export { DownloadError, manualDownloadSteps, OFFICIAL_PAGE_URL, type DownloadErrorKind } from './errors.js';
export { ALL_STATES, KNOWN_FIELDS, readExportForm, type ExportForm, type StateChoice } from './form.js';
