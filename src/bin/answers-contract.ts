#!/usr/bin/env node
// The `answers-contract` command of the installed package (dist/src/bin/answers-contract.js).
import '../contract/cli.ts';
