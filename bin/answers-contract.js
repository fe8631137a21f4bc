#!/usr/bin/env node
// Runs the TypeScript contract runner through tsx's ESM loader, so the package needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/contract/cli.ts');
