/**
 * How the tests launch a browser: Debian's Chromium (never a browser Playwright would download),
 * with background networking off, because this machine reaches no host but the package registries.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
