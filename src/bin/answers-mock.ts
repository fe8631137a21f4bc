#!/usr/bin/env node
// The `answers-mock` command of the installed package (dist/src/bin/answers-mock.js).
import { runCli } from '../node/cli.ts';

await runCli(process.argv);
