import type { StorybookConfig } from '@storybook/html-vite';

const config: StorybookConfig = {
  framework: '@storybook/html-vite',
  stories: ['../src/**/*.stories.ts'],
  // msw-storybook-addon starts msw's worker once, before the first story, and resets the handlers after each story.
  addons: ['msw-storybook-addon'],
  // public/ holds mockServiceWorker.js (`npx msw init`), served at the root, the scope the worker needs.
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
};
export default config;
