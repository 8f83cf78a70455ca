/** The catalog downloader's public surface, for `cpmx download` and `cpmx build --download`. */
export { downloadCatalog, DEFAULTS, type DownloadOptions, type DownloadResult } from './download.js';
export { DownloadError, manualDownloadSteps, OFFICIAL_PAGE_URL, type DownloadErrorKind } from './errors.js';
export { ALL_STATES, KNOWN_FIELDS, readExportForm, type ExportForm, type StateChoice } from './form.js';
export { formatProgress, terminalProgress, type TerminalProgress } from './progress.js';
export type { RetryInfo } from './retry.js';
export { checkCatalogZip, type CatalogMember } from './zip.js';
