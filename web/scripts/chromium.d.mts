// Types of chromium.mjs (a Node script, read by playwright.config.ts and the tests).
import type { LaunchOptions } from '@playwright/test';

export interface ChromiumConfig {
  executablePath: string;
  args: string[];
}
export function playwrightDisabledFeatures(): string[];
export function launchOptions(config: ChromiumConfig, defaults?: string[]): LaunchOptions;
export function chromiumLaunchOptions(): LaunchOptions;
