// First: the modules imported after it are compiled once and cached on disk (Node 22.1 and later).
import './compile-cache';
// Second, before the modules it instruments: OpenTelemetry traces, when asked for.
import './tracing';
import 'reflect-metadata';
import { runFromCommandLine } from './server';

runFromCommandLine(process.argv.slice(2), process.env);
